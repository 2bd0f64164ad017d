import type { ProviderConfig } from "../../config/mod.ts";
import {
  DEFAULT_ANTHROPIC_VERSION,
  presetOf,
  type ProtocolPreset,
  upstreamModelName,
} from "../../executors/presets.ts";
import type { NeutralRequest } from "../../model/mod.ts";
import type { ProbeResult as ContractProbeResult } from "./contract.ts";

/** Upstream probes give up after this long. */
export const PROBE_TIMEOUT_MS = 20_000;

/** Redirects a probe follows, and only within the origin it was sent to. */
const MAX_REDIRECTS = 3;

/**
 * A probe request that never carries its credentials to another host: redirects are followed by hand,
 * only to the same origin (scheme, host and port), and a POST only through 307/308 (which keep the body).
 * Anything else is reported as the answer, naming where it pointed.
 */
export async function probeFetch(url: string, init: RequestInit, fetcher: typeof fetch): Promise<Response> {
  let target = new URL(url);
  for (let hop = 0;; hop++) {
    const response = await fetcher(target, { ...init, redirect: "manual" });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status > 399 || location === null) return response;
    await response.body?.cancel();
    const next = new URL(location, target);
    const keepsBody = response.status === 307 || response.status === 308;
    if (next.origin !== target.origin) {
      throw new Error(
        `the upstream redirected to another host (${next.origin}); credentials are never sent across hosts`,
      );
    }
    if ((init.method ?? "GET") !== "GET" && !keepsBody) {
      throw new Error(
        `the upstream answered HTTP ${response.status} (redirect to ${next.pathname}); not followed`,
      );
    }
    if (hop + 1 >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
    target = next;
  }
}

/** The one-token request Test Connection sends. */
export function pingRequest(
  model: string,
  stream: boolean,
  source: NeutralRequest["source"],
): NeutralRequest {
  return {
    model,
    system: [],
    messages: [{ role: "user", parts: [{ kind: "text", text: "ping" }] }],
    tools: [],
    params: { maxTokens: 1 },
    stream,
    source,
  };
}

/** Result of Test Connection (its shape is part of the dashboard contract). */
export type ProbeResult = ContractProbeResult;

/** Model list outcome of Fetch Models. */
export type FetchModelsResult =
  | { readonly ok: true; readonly models: string[]; readonly url: string }
  | {
    readonly ok: false;
    readonly message: string;
    readonly url: string;
    /** The upstream's HTTP status, when it answered. */
    readonly status?: number;
  };

function headersFor(preset: ProtocolPreset, apiKey: string): Record<string, string> {
  return {
    ...preset.authHeaders(apiKey),
    ...(preset.format === "messages" ? { "anthropic-version": DEFAULT_ANTHROPIC_VERSION } : {}),
  };
}

/**
 * Kinds whose key is a stored OAuth credential are probed through the credential path
 * (`subscription_probe.ts`); the key itself is never sent as a token.
 */
const SHAPED_ONLY = "this kind is probed through its stored credential, not with the raw key";

/** Queries an upstream's model list (OpenAI/Anthropic `data[].id`, Gemini `models[].name`). */
export async function fetchUpstreamModels(
  provider: Pick<ProviderConfig, "apiType" | "baseUrl" | "apiKey" | "azure">,
  fetcher: typeof fetch = fetch,
): Promise<FetchModelsResult> {
  const preset = presetOf(provider);
  if (preset.shaper) return { ok: false, message: SHAPED_ONLY, url: "" };
  const url = preset.modelsUrl(provider.baseUrl.replace(/\/+$/, ""));
  return await readModelList(url, headersFor(preset, provider.apiKey), modelIds, fetcher);
}

/** GETs a model list with these credentials and reads its ids; never throws. */
export async function readModelList(
  url: string,
  headers: Record<string, string>,
  ids: (body: unknown) => string[],
  fetcher: typeof fetch,
): Promise<FetchModelsResult> {
  try {
    const response = await probeFetch(url, {
      headers: { accept: "application/json", ...headers },
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    }, fetcher);
    const text = await response.text();
    if (!response.ok) {
      return {
        ok: false,
        message: `HTTP ${response.status}: ${summarize(text)}`,
        url,
        status: response.status,
      };
    }
    return { ok: true, models: ids(JSON.parse(text)), url };
  } catch (error) {
    return { ok: false, message: firstLine(error), url };
  }
}

/** Ids from the model-list shapes the supported upstreams return (Kiro names them `modelId`). */
export function modelIds(body: unknown): string[] {
  const record = (body ?? {}) as Record<string, unknown>;
  const list = Array.isArray(record.data) ? record.data : Array.isArray(record.models) ? record.models : [];
  const ids: string[] = [];
  for (const entry of list as unknown[]) {
    const item = (entry ?? {}) as Record<string, unknown>;
    const raw = typeof item.id === "string"
      ? item.id
      : typeof item.modelId === "string"
      ? item.modelId
      : typeof item.name === "string"
      ? item.name
      : "";
    const id = raw.startsWith("models/") ? raw.slice("models/".length) : raw;
    if (id !== "" && !ids.includes(id)) ids.push(id);
  }
  return ids.sort();
}

/**
 * Test Connection: a one-token, non-stream request encoded by the provider's own codec and sent to the
 * same URL the gateway uses, with the provider's credentials. Never throws; the result says what happened.
 */
export async function probeProvider(
  provider: ProviderConfig,
  model: string,
  now: () => number,
  fetcher: typeof fetch = fetch,
): Promise<ProbeResult> {
  const preset = presetOf(provider);
  if (preset.shaper) return { ok: false, status: 0, latency_ms: 0, message: SHAPED_ONLY, model };
  const source = preset.format === "cloud_assistant" ? "chat_completions" : preset.format;
  const upstreamModel = upstreamModelName(preset, model);
  const body = preset.codec.encodeRequest(pingRequest(model, false, source), upstreamModel).body;
  const result = probeResults(model, now);
  try {
    const response = await postProbe(
      preset.url(provider.baseUrl, model, false),
      { "content-type": "application/json", ...headersFor(preset, provider.apiKey) },
      JSON.stringify(body),
      fetcher,
    );
    const text = await response.text();
    return response.ok
      ? result.connected(response.status)
      : result.failed(response.status, `HTTP ${response.status}: ${summarize(text)}`);
  } catch (error) {
    return result.failed(0, firstLine(error));
  }
}

/**
 * Test Connection with no model to ask: the model list proves the URL and the key without spending a
 * request (and tells the operator which models to add).
 */
export async function modelListProbe(
  list: () => Promise<FetchModelsResult>,
  now: () => number,
): Promise<ProbeResult> {
  const result = probeResults("", now);
  const listed = await list();
  if (!listed.ok) return result.failed(listed.status ?? 0, listed.message);
  const connected = result.connected(200);
  const count = `${listed.models.length} model${listed.models.length === 1 ? "" : "s"}`;
  return { ...connected, message: `Connected: listed ${count} in ${connected.latency_ms} ms` };
}

/** A probe's POST: never redirected off its host, given up after `PROBE_TIMEOUT_MS`. */
export function postProbe(
  url: string,
  headers: HeadersInit,
  body: BodyInit,
  fetcher: typeof fetch,
): Promise<Response> {
  return probeFetch(
    url,
    { method: "POST", headers, body, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) },
    fetcher,
  );
}

/** Test Connection results for `model`, each with the latency since this was made. */
export function probeResults(model: string, now: () => number): {
  /** A failed probe; `status` 0 when no answer came. */
  failed(status: number, message: string): ProbeResult;
  /** A probe the upstream accepted. */
  connected(status: number): ProbeResult;
} {
  const started = now();
  const latency = () => Math.max(0, Math.round(now() - started));
  return {
    failed: (status, message) => ({ ok: false, status, latency_ms: latency(), message, model }),
    connected: (status) => {
      const ms = latency();
      return { ok: true, status, latency_ms: ms, message: `Connected: HTTP ${status} in ${ms} ms`, model };
    },
  };
}

/** An error's first line, short enough for the dashboard. */
export function firstLine(error: unknown): string {
  return (error as Error).message.split("\n")[0].slice(0, 300);
}

export function summarize(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat || "(empty body)";
}
