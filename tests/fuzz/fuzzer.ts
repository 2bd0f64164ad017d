/**
 * The fuzzing engine: a seeded PRNG, a bounded campaign runner (count, concurrency, per-request timeout,
 * overall deadline) and the checks every answer must pass whatever it was sent: never a 500, never a
 * hang, never a stack trace, never an empty 200, and every 4xx in the surface's own error envelope.
 * Everything else (what to send, what the upstream does) is data passed in.
 */

/** mulberry32: a tiny seeded PRNG, so every input can be rebuilt from (seed, index). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Convenience draws over a seeded PRNG. */
export class Rng {
  readonly #next: () => number;

  constructor(seed: number) {
    this.#next = mulberry32(seed);
  }

  /** A float in [0, 1). */
  float(): number {
    return this.#next();
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.#next() * n);
  }

  /** An integer in [min, max], skewed towards min (small sizes are common, huge ones rare). */
  size(min: number, max: number): number {
    return min + Math.floor((max - min) * this.#next() ** 3);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.#next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
}

/** The error envelope a client surface must answer its 4xx in. */
export type Envelope = "openai" | "messages" | "generate" | "local_runner" | "rerank";

/** One request the fuzzer sends. */
export interface FuzzInput {
  /** What kind of hostile input this is (a generator's name), for the report. */
  readonly label: string;
  readonly path: string;
  readonly body: string | Uint8Array<ArrayBuffer>;
  readonly envelope: Envelope;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A broken rule, with what it takes to reproduce it. */
export interface Finding {
  readonly index: number;
  readonly label: string;
  readonly problem: string;
  readonly path: string;
  /** The start of the body sent (the whole body is rebuilt from the seed and index). */
  readonly bodyStart: string;
}

/** What a campaign saw. */
export interface CampaignResult {
  readonly name: string;
  readonly inputs: number;
  readonly statuses: ReadonlyMap<number, number>;
  readonly status500: number;
  readonly hangs: number;
  readonly findings: readonly Finding[];
  readonly elapsedMs: number;
  /** The longest health-probe wait while this campaign ran (set by the runner). */
  readonly maxHealthWaitMs?: number;
}

/** How a campaign runs. */
export interface Campaign {
  readonly name: string;
  readonly baseUrl: string;
  readonly seed: number;
  readonly count: number;
  readonly concurrency: number;
  /** A request (headers and whole body) taking longer than this is a hang. */
  readonly timeoutMs: number;
  /** The campaign stops early at this wall-clock time (ms since epoch), whatever the count. */
  readonly deadline: number;
  readonly make: (rng: Rng, index: number) => FuzzInput;
}

/** Runs one campaign to its count or deadline and checks every answer. */
export async function runCampaign(campaign: Campaign): Promise<CampaignResult> {
  const started = Date.now();
  const statuses = new Map<number, number>();
  const findings: Finding[] = [];
  let next = 0;
  let sent = 0;
  let status500 = 0;
  let hangs = 0;
  const worker = async () => {
    while (next < campaign.count && Date.now() < campaign.deadline) {
      const index = next++;
      const input = campaign.make(new Rng(campaign.seed * 1_000_003 + index), index);
      sent++;
      const outcome = await send(campaign.baseUrl, input, campaign.timeoutMs);
      statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
      if (outcome.status === 500) status500++;
      if (outcome.status === 0) hangs++;
      if (outcome.problem !== undefined) findings.push(findingOf(index, input, outcome.problem));
    }
  };
  await Promise.all(Array.from({ length: campaign.concurrency }, worker));
  return {
    name: campaign.name,
    inputs: sent,
    statuses,
    status500,
    hangs,
    findings,
    elapsedMs: Date.now() - started,
  };
}

function findingOf(index: number, input: FuzzInput, problem: string): Finding {
  const text = typeof input.body === "string"
    ? input.body
    : new TextDecoder().decode(input.body.subarray(0, 300));
  return {
    index,
    label: input.label,
    problem,
    path: input.path.slice(0, 200),
    bodyStart: text.slice(0, 300),
  };
}

/** A 200 stream cut short after the upstream broke mid-answer (status column "cut"). */
export const CUT = -1;

/** Status 0 stands for a hang (timeout) or a connection the gateway dropped. */
interface Outcome {
  readonly status: number;
  readonly problem?: string;
}

/** How much of an answer is kept for the checks; the rest is read and dropped. */
const KEPT_CHARS = 16 << 20;

async function send(baseUrl: string, input: FuzzInput, timeoutMs: number): Promise<Outcome> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    const response = await fetch(`${baseUrl}${input.path}`, {
      method: "POST",
      body: input.body,
      headers: { "content-type": "application/json", ...input.headers },
      signal: controller.signal,
    });
    let text: string;
    try {
      text = await readKept(response);
    } catch (error) {
      // A stream the upstream broke after content began is cut short on purpose (documented): the status
      // line already said 200 and there is no way to take it back. It is reported apart from hangs.
      if (response.status === 200 && !timedOut) return { status: CUT };
      throw error;
    }
    return { status: response.status, problem: judge(response.status, text, input.envelope) };
  } catch (error) {
    if (timedOut) return { status: 0, problem: `hang: no complete answer within ${timeoutMs} ms` };
    return { status: 0, problem: `connection failed: ${(error as Error).message.slice(0, 200)}` };
  } finally {
    clearTimeout(timer);
  }
}

/** Reads a whole answer, keeping its first KEPT_CHARS characters. */
async function readKept(response: Response): Promise<string> {
  if (response.body === null) return "";
  const decoder = new TextDecoder();
  let kept = "";
  for await (const chunk of response.body) {
    if (kept.length < KEPT_CHARS) kept += decoder.decode(chunk, { stream: true });
  }
  return kept;
}

/** A stack frame as V8 prints it (`at name (file:///…:12:5)`), or a bare internal path. */
const STACK_FRAME = /\bat [^\n]*(?:file:\/\/|ext:|node:)[^\n]*:\d+:\d+|file:\/\/\/[^\s"]*\.ts:\d+/;

/** Why an answer breaks the rules, or undefined when it keeps them. */
export function judge(status: number, text: string, envelope: Envelope): string | undefined {
  if (status === 500) return `500: ${text.slice(0, 300)}`;
  if (STACK_FRAME.test(text)) return `stack trace in the body: ${text.slice(0, 300)}`;
  if (status === 200 && text.length === 0) return "empty 200";
  if (status >= 400 && status < 500 && status !== 499) {
    const problem = envelopeProblem(status, text, envelope);
    if (problem !== undefined) return `${status} not in the ${envelope} envelope: ${problem}`;
  }
  return undefined;
}

function envelopeProblem(status: number, text: string, envelope: Envelope): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 200)}`;
  }
  const record = isObject(body) ? body : {};
  // The spec fixes these bodies whatever the surface: 401 {detail}, 429 budget_exceeded.
  if (status === 401 && typeof record.detail === "string") return undefined;
  const error = isObject(record.error) ? record.error : undefined;
  // A model path with `..` segments is resolved by URL rules before routing (`%2E%2E` too), so it can
  // land on no surface at all: the generic 404 for an unknown path is the right answer there.
  if (status === 404 && typeof error?.message === "string" && error.message.startsWith("No route for ")) {
    return undefined;
  }
  const ok = envelope === "openai"
    ? typeof error?.message === "string" && typeof error.type === "string"
    : envelope === "messages"
    ? record.type === "error" && typeof error?.message === "string" && typeof error.type === "string"
    : envelope === "generate"
    ? typeof error?.code === "number" && typeof error.message === "string" && typeof error.status === "string"
    : envelope === "rerank"
    ? typeof record.message === "string" && typeof record.type === "string"
    : typeof record.error === "string";
  return ok ? undefined : text.slice(0, 200);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
