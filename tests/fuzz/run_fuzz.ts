/**
 * One fuzz run: a hostile mock upstream, a gateway in front of it (in-process for the test, a child
 * process for the long run, so the health probe measures the gateway alone), one campaign per client
 * surface and per hostile-upstream mode, and a health probe every 200 ms in a worker.
 */
import { type CampaignResult, CUT, type FuzzInput, runCampaign } from "./fuzzer.ts";
import { clientInput } from "./client_inputs.ts";
import { startHostileUpstream, UPSTREAM_MODES } from "./hostile_upstream.ts";
import { SURFACES } from "./surfaces.ts";
import { uploadInput } from "./upload_inputs.ts";
import { QUIET_KEY_CHECKS, startTestGateway } from "../helpers/gateway.ts";

/** How large a run is. */
export interface FuzzOptions {
  readonly seed: number;
  /** Inputs per client surface and per upstream mode. */
  readonly count: number;
  /** Largest hostile values and answers (the long run). */
  readonly big: boolean;
  /** Wall-clock budget of each campaign. */
  readonly campaignMs: number;
  readonly timeoutMs: number;
  readonly concurrency: number;
  /** Run the gateway as `main.ts serve` in a child process. */
  readonly childProcess: boolean;
  /** Runs only the campaigns whose name contains this text (all when absent). */
  readonly only?: string;
  /** Hears each campaign as it ends (the long run prints progress). */
  readonly onCampaign?: (result: CampaignResult) => void;
}

/** What a run saw. */
export interface FuzzReport {
  readonly campaigns: readonly CampaignResult[];
  readonly maxHealthWaitMs: number;
  readonly healthProbes: number;
}

const UPSTREAM_FORMATS = [
  { name: "chat", apiType: "chat_compat", path: "/v1" },
  { name: "messages", apiType: "messages_native", path: "" },
  { name: "generate", apiType: "generate_native", path: "" },
  { name: "responses", apiType: "responses_native", path: "/v1" },
] as const;

/** A static key for the fuzz gateway's settings (API requests stay keyless: require_api_key is off). */
const FUZZ_ADMIN_KEY = "fuzz-admin-key-0001";

/** One provider per (mode, upstream format): a cooled-down account in one mode cannot mute another. */
function configYaml(upstream: string): string {
  const modes = ["ok", ...UPSTREAM_MODES];
  const providers = modes.flatMap((mode) =>
    UPSTREAM_FORMATS.map((f) =>
      `  - id: ${mode}-${f.name}\n    prefix: ${mode === "ok" ? `up_${f.name}` : `${mode}_${f.name}`}\n` +
      `    api_type: ${f.apiType}\n    base_url: ${upstream}/${mode}${f.path}\n    api_key: k-${mode}\n` +
      `    models: [ok, m]\n`
    )
  ).join("");
  // Limits below their defaults so that hostile answers land on both sides of each (lines up to 24 MiB).
  return `limits:\n  first_content_timeout_s: 2\n  idle_timeout_s: 5\n  max_answer_bytes: 8388608\n` +
    `  max_stream_event_chars: 4194304\n` +
    `api_keys:\n  - key: ${FUZZ_ADMIN_KEY}\n    client_key_label: fuzz-admin\n` +
    // The hostile upstreams are for requests: the gateway's own checks of the provider keys stay out.
    QUIET_KEY_CHECKS +
    `providers:\n${providers}`;
}

/** A valid request from a random surface, sent to a hostile provider, carrying its variant seed. */
function upstreamInput(mode: string, rng: import("./fuzzer.ts").Rng, index: number): FuzzInput {
  const surface = rng.pick(SURFACES.filter((s) => s.name !== "count_tokens"));
  const format = rng.pick(UPSTREAM_FORMATS).name;
  const stream = rng.chance(0.5);
  const model = `${mode}_${format}/m`;
  const body = JSON.stringify(surface.body(model, `Answer me. seed:${index}`, stream));
  return {
    label: `${mode} via ${surface.name}`,
    path: surface.path(rng, model, stream),
    body,
    envelope: surface.envelope,
  };
}

/** Starts the gateway (in-process or as a child), runs every campaign, stops everything. */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const upstream = await startHostileUpstream(options.big);
  const gateway = options.childProcess
    ? await startChildGateway(configYaml(upstream.url))
    : await startTestGateway(configYaml(upstream.url));
  // Every hostile answer must reach the gateway: a cooled-down account would answer 503 without a call.
  await setCooldowns(gateway.url, false);
  const probe = new Worker(new URL("./health_worker.ts", import.meta.url), { type: "module" });
  let lapDone: (max: number) => void = () => {};
  const probeDone = new Promise<{ max: number; probes: number }>((resolve) => {
    probe.onmessage = (event: MessageEvent<{ max: number; probes: number } | { lap: number }>) => {
      if ("lap" in event.data) lapDone(event.data.lap);
      else resolve(event.data);
    };
  });
  const lap = () => {
    const answered = new Promise<number>((resolve) => lapDone = resolve);
    probe.postMessage("lap");
    return answered;
  };
  probe.postMessage({ url: `${gateway.url}/v1/health` });
  const campaigns: CampaignResult[] = [];
  try {
    const plan = [
      ...SURFACES.map((surface) => ({
        name: `surface ${surface.name}`,
        make: (rng: import("./fuzzer.ts").Rng) => clientInput(surface, rng, options.big),
      })),
      { name: "uploads (multipart)", make: (rng: import("./fuzzer.ts").Rng) => uploadInput(rng) },
      ...UPSTREAM_MODES.map((mode) => ({
        name: `upstream ${mode}`,
        make: (rng: import("./fuzzer.ts").Rng, index: number) => upstreamInput(mode, rng, index),
        concurrency: campaignConcurrency(mode, options.concurrency),
      })),
    ];
    for (const [i, step] of plan.entries()) {
      if (options.only !== undefined && !step.name.includes(options.only)) continue;
      const result = await runCampaign({
        ...step,
        baseUrl: gateway.url,
        seed: options.seed + i,
        count: options.count,
        concurrency: "concurrency" in step ? step.concurrency : options.concurrency,
        timeoutMs: options.timeoutMs,
        deadline: Date.now() + options.campaignMs,
      });
      const withHealth = { ...result, maxHealthWaitMs: await lap() };
      campaigns.push(withHealth);
      options.onCampaign?.(withHealth);
    }
  } finally {
    probe.postMessage("stop");
    await gateway.stop();
    await upstream.close();
  }
  const health = await probeDone;
  probe.terminate();
  return { campaigns, maxHealthWaitMs: health.max, healthProbes: health.probes };
}

/**
 * Slow answers mostly wait: many at once keep the campaign short without more CPU. Giant lines (up to
 * 24 MiB) go two at a time: each event under the limit is parsed and re-encoded in one go (~3.5 ms per
 * MiB), so eight at once measure how a single core queues eight multi-MiB events (107-167 ms of health
 * wait, measured), not how long one request holds the loop (~30 ms at two at a time).
 */
function campaignConcurrency(mode: string, concurrency: number): number {
  if (mode === "slow_drip") return concurrency * 8;
  if (mode === "giant_line") return Math.min(concurrency, 2);
  return concurrency;
}

/** Turns account cooldowns on or off through the dashboard API (the fuzz config has a static admin key). */
async function setCooldowns(url: string, enabled: boolean): Promise<void> {
  const response = await fetch(`${url}/dashboard/api/settings`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${FUZZ_ADMIN_KEY}` },
    body: JSON.stringify({ server_cooldowns_enabled: enabled }),
  });
  if (!response.ok) {
    throw new Error(`fuzz: setting cooldowns failed: ${response.status} ${await response.text()}`);
  }
}

/** `main.ts serve` on a fresh home with the fuzz config, stopped with SIGTERM. */
async function startChildGateway(yaml: string): Promise<{ url: string; stop(): Promise<void> }> {
  const home = await Deno.makeTempDir({ prefix: "gateway-fuzz-" });
  await Deno.writeTextFile(`${home}/config.yaml`, yaml);
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../main.ts", import.meta.url).pathname, "serve", "--port", String(port)],
    env: { GATEWAY_HOME: home, NO_COLOR: "1" },
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`${url}/v1/health`).then((r) => r.body?.cancel().then(() => true), () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await Deno.remove(home, { recursive: true });
    },
  };
}

/** The summary table: inputs, statuses, 500s, hangs and findings per campaign. */
export function summaryTable(report: FuzzReport): string {
  const rows = report.campaigns.map((c) => {
    const statuses = [...c.statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) =>
      `${s === CUT ? "cut" : s}:${n}`
    ).join(
      " ",
    );
    return `| ${c.name} | ${c.inputs} | ${statuses} | ${c.status500} | ${c.hangs} | ${c.findings.length} | ${
      (c.elapsedMs / 1000).toFixed(1)
    } s | ${c.maxHealthWaitMs?.toFixed(1) ?? "–"} ms |`;
  });
  const total = report.campaigns.reduce((n, c) => n + c.inputs, 0);
  return [
    "| campaign | inputs | statuses (0 = hang/dropped, cut = 200 stream cut short mid-answer) | 500s | hangs | findings | time | max health wait |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `total inputs: ${total}; health probes: ${report.healthProbes}; max health wait: ${
      report.maxHealthWaitMs.toFixed(1)
    } ms`,
  ].join("\n");
}
