/**
 * Fetch Models and Test Connection for the kinds whose calls are shaped from the stored credential (Google
 * Cloud Code, the Kiro cloud assistant). The credential comes from the same path as requests (refreshed
 * when due and written back; the Cloud Code project found first), so only the access token is ever sent.
 */
import type { ProviderConfig } from "../../config/mod.ts";
import type { CredentialBlob } from "../../credentials/mod.ts";
import { cloudCodeHeaders, cloudCodeProject } from "../../executors/cloud_code.ts";
import { KIRO_SHAPER, kiroModelListUrls } from "../../executors/cloud_assistant.ts";
import { readCloudCodeModels, type Subscriptions } from "../../executors/oauth/mod.ts";
import { presetFor, type ProtocolPreset } from "../../executors/presets.ts";
import type { StreamEvent } from "../../model/mod.ts";
import { eventStreamFrames } from "../../wire/framing/mod.ts";
import { chainSteps } from "../../wire/shared/mod.ts";
import {
  type FetchModelsResult,
  firstLine,
  modelIds,
  pingRequest,
  postProbe,
  PROBE_TIMEOUT_MS,
  probeFetch,
  type ProbeResult,
  probeResults,
  summarize,
} from "./probe.ts";

/** Pages of a paged model list read at most (each names the next with `nextToken`). */
const MAX_MODEL_PAGES = 10;

function base(provider: ProviderConfig): string {
  return provider.baseUrl.replace(/\/+$/, "");
}

/** The model list of a Cloud Code or cloud-assistant provider; never throws. */
export async function shapedModels(
  subscriptions: Subscriptions,
  provider: ProviderConfig,
  fetcher: typeof fetch,
): Promise<FetchModelsResult> {
  const preset = presetFor(provider.apiType);
  if (!preset?.shaper) {
    return { ok: false, message: `api_type "${provider.apiType}" cannot be probed by this build`, url: "" };
  }
  let url = "";
  try {
    const blob = await subscriptions.shapedCredential(provider);
    if (preset.format === "cloud_assistant") return await kiroModels(provider, blob, fetcher);
    url = preset.modelsUrl(base(provider));
    const project = cloudCodeProject(blob.extra);
    const response = await postProbe(
      url,
      {
        "content-type": "application/json",
        ...cloudCodeHeaders(
          provider.apiType === "cli_oauth_alt" ? "antigravity" : "gemini-cli",
          blob.accessToken,
        ),
      },
      JSON.stringify(project ? { project } : {}),
      fetcher,
    );
    const text = await response.text();
    if (!response.ok) return { ok: false, message: `HTTP ${response.status}: ${summarize(text)}`, url };
    const list = readCloudCodeModels(JSON.parse(text));
    // The list carries each model's remaining quota: routing (and the Routing screen) learn it here too.
    subscriptions.cloudQuota.observe(provider, list.windows);
    return { ok: true, models: list.ids, url };
  } catch (error) {
    return { ok: false, message: firstLine(error), url };
  }
}

/**
 * Kiro's `ListAvailableModels`, host by host in the kind's order: a host that answers 403 (a pair it
 * refuses), 429 (another quota pool) or 5xx hands over to the next, as requests do.
 */
async function kiroModels(
  provider: ProviderConfig,
  blob: CredentialBlob,
  fetcher: typeof fetch,
): Promise<FetchModelsResult> {
  const urls = kiroModelListUrls(base(provider), blob.extra);
  const failover = KIRO_SHAPER.failover;
  let last: FetchModelsResult = { ok: false, message: "no host to ask", url: "" };
  for (const url of urls) {
    const models: string[] = [];
    let page = url;
    let status = 0;
    try {
      for (let n = 0; n < MAX_MODEL_PAGES; n++) {
        const response = await probeFetch(page, {
          headers: {
            accept: "application/json",
            authorization: `Bearer ${blob.accessToken}`,
            "user-agent": "aws-sdk-js/3.0.0 gateway",
            "x-amz-user-agent": "aws-sdk-js/3.0.0 gateway",
          },
          signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
        }, fetcher);
        const text = await response.text();
        status = response.status;
        if (!response.ok) throw new Error(`HTTP ${response.status}: ${summarize(text)}`);
        const body = JSON.parse(text) as { nextToken?: unknown };
        models.push(...modelIds(body));
        if (typeof body.nextToken !== "string" || body.nextToken === "") break;
        const next = new URL(url);
        next.searchParams.set("nextToken", body.nextToken);
        page = next.toString();
      }
      return { ok: true, models: [...new Set(models)].sort(), url };
    } catch (error) {
      last = { ok: false, message: firstLine(error), url };
      if (status === 0 || !failover(status)) return last;
    }
  }
  return last;
}

/**
 * Test Connection: a one-token request built exactly as a client request is (same credential, same body,
 * same hosts in the same order with the same failover). A 200 event stream that carries an exception is a
 * failure, as it is for requests. Never throws.
 */
export async function shapedProbe(
  subscriptions: Subscriptions,
  provider: ProviderConfig,
  model: string,
  now: () => number,
  fetcher: typeof fetch,
): Promise<ProbeResult> {
  const result = probeResults(model, now);
  const preset = presetFor(provider.apiType);
  if (!preset?.shaper) {
    return result.failed(0, `api_type "${provider.apiType}" cannot be probed by this build`);
  }
  const shaper = preset.shaper;
  try {
    const blob = await subscriptions.shapedCredential(provider);
    const request = pingRequest(
      model,
      preset.alwaysStream === true,
      preset.format === "cloud_assistant" ? "chat_completions" : preset.format,
    );
    const calls = shaper.shape({
      baseUrl: base(provider),
      accessToken: blob.accessToken,
      extra: blob.extra,
      body: preset.codec.encodeRequest(request, model).body,
      model,
      stream: preset.alwaysStream === true,
      newId: () => crypto.randomUUID().replaceAll("-", ""),
    });
    let failed = result.failed(0, "no host to ask");
    for (const [i, call] of calls.entries()) {
      const response = await postProbe(call.url, call.headers, JSON.stringify(call.json), fetcher);
      if (!response.ok) {
        failed = result.failed(
          response.status,
          `HTTP ${response.status}: ${summarize(await response.text())}`,
        );
        if (i + 1 < calls.length && shaper.failover(response.status)) continue;
        return failed;
      }
      const problem = await answerProblem(preset, response);
      if (problem !== null) return result.failed(502, problem);
      return result.connected(response.status);
    }
    return failed;
  } catch (error) {
    return result.failed(0, firstLine(error));
  }
}

/** What is wrong with a 200 answer: an event stream's exception or a corrupt frame; null when it is fine. */
async function answerProblem(preset: ProtocolPreset, response: Response): Promise<string | null> {
  if (preset.codec.framing !== "eventstream" || response.body === null) {
    await response.body?.cancel();
    return null;
  }
  let error: string | null = null;
  const steps = chainSteps(eventStreamFrames().steps, preset.codec.decodeStream().steps);
  const out = {
    enqueue: (event: StreamEvent) => {
      if (event.type === "error" && error === null) error = `stream error: ${event.message}`;
    },
  };
  try {
    // Leaving the loop early cancels the rest of the body.
    for await (const chunk of response.body) {
      steps.transform(chunk, out);
      if (error !== null) return error;
    }
    steps.flush?.(out);
  } catch (failure) {
    return `the answer could not be read: ${firstLine(failure)}`;
  }
  return error;
}
