import { GatewayError, type NeutralRequest, type NeutralResponse, partsText } from "../model/mod.ts";
import { clampMinPanel, exhaustedMessage, judgeRequest, panelRequest } from "../routing/mod.ts";
import type { RouteSuccess } from "./attempt_context.ts";

/** The fusion settings in force for one request. */
export interface FusionSettings {
  /** `<prefix>/<model>`, or empty for the first combo member. */
  readonly judge: string;
  readonly minPanel: number;
  readonly graceMs: number;
  readonly hardTimeoutMs: number;
}

/** What fusion needs from the dispatcher. */
export interface FusionInput {
  readonly request: NeutralRequest;
  readonly members: readonly string[];
  readonly settings: FusionSettings;
  /** The client's signal: a disconnect cancels the panel. */
  readonly signal: AbortSignal;
  /** True when a model can be routed right now (checked before any panel call). */
  readonly routable: (model: string) => boolean;
  /** Normal routing with fallback for one request. */
  readonly route: (request: NeutralRequest, signal: AbortSignal) => Promise<RouteSuccess>;
  readonly now: () => number;
}

interface PanelAnswer {
  readonly member: string;
  readonly index: number;
  readonly response: NeutralResponse;
}

/**
 * The fusion combo strategy: every member answers the same tool-free, non-streaming request; after
 * the quorum, stragglers get a grace period, then are cancelled; a judge writes the final answer from
 * the anonymised answers, keeping the client's stream flag and tools. One answer is returned as is.
 */
export async function runFusion(input: FusionInput): Promise<RouteSuccess> {
  const { members, settings } = input;
  const preferred = settings.judge || members[0];
  const judge = input.routable(preferred) ? preferred : members.find((m) => input.routable(m)) ?? preferred;
  const answers = await runPanel(input);
  if (input.signal.aborted) throw new GatewayError(499, "client_closed", "client disconnected");
  if (answers.ok.length === 0) {
    const last = answers.failures.at(-1);
    const message = exhaustedMessage(
      last?.member ?? members.at(-1) ?? "none",
      last?.message ?? "no panel answer",
    );
    throw new GatewayError(503, "unavailable", message, { fixedBody: { detail: message } });
  }
  if (answers.ok.length === 1) return { kind: "answer", response: answers.ok[0].response };
  const byPanelOrder = [...answers.ok].sort((a, b) => a.index - b.index);
  const texts = byPanelOrder.map((a) => partsText(a.response.parts) || "(no text)");
  try {
    return await input.route(judgeRequest({ ...input.request, model: judge }, texts), input.signal);
  } catch (error) {
    if (!(error instanceof GatewayError) || error.status !== 503 || input.signal.aborted) throw error;
    // The judge became unavailable after the panel answered: the first member that answered judges.
    const fallbackJudge = answers.ok[0].member;
    return await input.route(judgeRequest({ ...input.request, model: fallbackJudge }, texts), input.signal);
  }
}

async function runPanel(input: FusionInput): Promise<{
  ok: PanelAnswer[];
  failures: { member: string; message: string }[];
}> {
  const { members, settings } = input;
  const quorum = clampMinPanel(settings.minPanel, members.length);
  const ok: PanelAnswer[] = [];
  const failures: { member: string; message: string }[] = [];
  const controller = new AbortController();
  const abort = () => controller.abort(new DOMException("fusion panel finished", "AbortError"));
  input.signal.addEventListener("abort", abort, { once: true });
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  const hardTimer = setTimeout(abort, settings.hardTimeoutMs);
  const base = panelRequest(input.request);
  let settled = 0;
  const calls = members.map(async (member, index) => {
    try {
      const outcome = await input.route({ ...base, model: member }, controller.signal);
      if (outcome.kind !== "answer") throw new Error("panel member streamed unexpectedly");
      if (!controller.signal.aborted) ok.push({ member, index, response: outcome.response });
    } catch (error) {
      failures.push({ member, message: error instanceof Error ? error.message : String(error) });
    } finally {
      settled++;
      if (settled === members.length) abort();
      else if (ok.length >= quorum && graceTimer === undefined) {
        graceTimer = setTimeout(abort, settings.graceMs);
      }
    }
  });
  // Cancelled calls are awaited too, so no panel request outlives the client request.
  await Promise.allSettled(calls);
  clearTimeout(graceTimer);
  clearTimeout(hardTimer);
  input.signal.removeEventListener("abort", abort);
  return { ok, failures };
}
