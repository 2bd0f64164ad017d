import {
  applyAdjustments,
  capabilitiesFor,
  imagesToPrefetch,
  isPrivateHost,
  prefetchImages,
  systemPrefetchDeps,
} from "../adjustments/mod.ts";
import type { ProviderConfig } from "../config/mod.ts";
import type { UpstreamRequest } from "../executors/call_upstream.ts";
import type { RequestBody } from "../executors/request_body.ts";
import {
  DEFAULT_ANTHROPIC_VERSION,
  presetFor,
  presetOf,
  type ProtocolPreset,
  upstreamModelName,
} from "../executors/presets.ts";
import { isSubscriptionKind, type SubscriptionCall } from "../executors/oauth/mod.ts";
import type { NeutralRequest, UpstreamFormat } from "../model/mod.ts";
import { addWarnings, droppedField } from "../model/mod.ts";
import { type Attempt, cacheAffinityKey } from "../routing/mod.ts";
import { upstreamCodecFor } from "../wire/mod.ts";
import type { UpstreamCodec } from "../wire/codec.ts";
import type { CredentialBlob } from "../credentials/mod.ts";
import type { AttemptDeps, CallerContext } from "./attempt_context.ts";
import type { AccountConfig } from "./inventory_accounts.ts";
import { droppedExtraWarnings, type GatewayWarning } from "./warnings.ts";
import { jsonRequestBody } from "./sliced_json.ts";
import { nextTurn } from "../next_turn.ts";

/** The account an attempt calls and how to reach it. */
export interface CallTarget {
  readonly provider: AccountConfig;
  readonly preset: ProtocolPreset;
}

/** An upstream call ready to go: the adjusted request, its upstream codec, the HTTP call, its warnings. */
export interface PreparedCall {
  readonly request: NeutralRequest;
  readonly codec: UpstreamCodec;
  readonly call: UpstreamRequest;
  /** Further hosts tried in order when `failover` allows it (kinds that fail over between hosts). */
  readonly nextHosts: readonly UpstreamRequest[];
  readonly failover: (status: number) => boolean;
  /** The upstream streams although the client asked for one answer: the stream is collected. */
  readonly collect: boolean;
  /** What the upstream's format could not express (empty for most same-format calls). */
  readonly warnings: readonly GatewayWarning[];
}

/** The account of an attempt, or null when it is gone (removed by a reload since routing chose it). */
export function callTarget(deps: AttemptDeps, attempt: Attempt): CallTarget | null {
  const provider = deps.control.account(attempt.account.id);
  return provider ? { provider, preset: presetOf(provider) } : null;
}

/**
 * Adjusts the request for the target, encodes it with the upstream codec and builds the HTTP call. A
 * promise only when images must be fetched first: the common case costs no microtask turn.
 */
export function prepareCall(
  deps: AttemptDeps,
  caller: CallerContext,
  original: NeutralRequest,
  attempt: Attempt,
  target: CallTarget,
  trace: TraceHeaders,
): PreparedCall | Promise<PreparedCall> {
  if (target.preset.shaper) {
    // Calls shaped from the credential: refreshed first when due (single-flight, written back), and for
    // Cloud Code with its project found on first use.
    const go = (b: CredentialBlob) =>
      prepareFor(deps, caller, original, attempt, target, trace, undefined, b);
    const ready = deps.subscriptions.shapedCredential(target.provider);
    return ready instanceof Promise ? ready.then(go) : go(ready);
  }
  if (!isSubscriptionKind(target.provider.apiType)) {
    return prepareFor(deps, caller, original, attempt, target, trace);
  }
  const shape = {
    model: attempt.upstreamModel,
    hasImages: original.messages.some((m) => m.parts.some((p) => p.kind === "image")),
    agentTurn: original.messages.some((m) =>
      m.role === "tool" || m.parts.some((p) => p.kind === "toolResult")
    ),
    clientHeaders: caller.clientHeaders,
    conversation: cacheAffinityKey(original),
  };
  const subscription = deps.subscriptions.call(target.provider, shape);
  if (subscription instanceof Promise) {
    return subscription.then((sub) =>
      prepareFor(deps, caller, original, attempt, subscriptionTarget(target, sub), trace, sub)
    );
  }
  return prepareFor(
    deps,
    caller,
    original,
    attempt,
    subscriptionTarget(target, subscription),
    trace,
    subscription,
  );
}

function prepareFor(
  deps: AttemptDeps,
  caller: CallerContext,
  original: NeutralRequest,
  attempt: Attempt,
  target: CallTarget,
  trace: TraceHeaders,
  sub?: SubscriptionCall,
  credential?: CredentialBlob,
): PreparedCall | Promise<PreparedCall> {
  const adjusting = adjustForTarget(deps, caller, original, attempt, target, sub?.inlineImagesOnly ?? false);
  // A big body (parsed off the loop, `longStrings` set) is encoded on a turn of its own (see #handle).
  if (adjusting instanceof Promise || caller.longStrings !== undefined) {
    return (async () => {
      const adjusted = await adjusting;
      await nextTurn();
      return build(deps, caller, attempt, target, adjusted, trace, sub, credential);
    })();
  }
  return build(deps, caller, attempt, target, adjusting, trace, sub, credential);
}

/** The target of a subscription call: its format (Copilot's depends on the model) and URL. */
function subscriptionTarget(target: CallTarget, sub: SubscriptionCall): CallTarget {
  const base = presetFor(target.provider.apiType);
  return {
    provider: target.provider,
    preset: {
      format: sub.format,
      codec: upstreamCodecFor(sub.format),
      // An upstream that only streams (Codex): a non-stream client's answer is collected from the stream.
      alwaysStream: sub.alwaysStream,
      url: () => sub.url,
      authHeaders: () => sub.headers,
      modelsUrl: base.modelsUrl,
    },
  };
}

function build(
  deps: AttemptDeps,
  caller: CallerContext,
  attempt: Attempt,
  { provider, preset }: CallTarget,
  adjusted: AdjustedRequest,
  trace: TraceHeaders,
  sub?: SubscriptionCall,
  credential?: CredentialBlob,
): PreparedCall | Promise<PreparedCall> {
  const request = adjusted.request;
  const codec = preset.codec;
  // An upstream that only streams is asked for a stream; a non-stream client gets it buffered.
  const upstreamStream = request.stream || preset.alwaysStream === true;
  const encoded = codec.encodeRequest(
    upstreamStream ? { ...request, stream: true } : request,
    upstreamModelName(preset, attempt.upstreamModel),
  );
  const warnings = droppedExtraWarnings(request, preset.format);
  if (adjusted.warnings.length > 0) addWarnings(warnings, adjusted.warnings);
  if (encoded.warnings.length > 0) addWarnings(warnings, encoded.warnings);
  let body = encoded.body;
  if (sub?.rewriteBody) {
    const rewritten = sub.rewriteBody(body);
    body = rewritten.body;
    if (rewritten.dropped.length > 0) {
      addWarnings(
        warnings,
        rewritten.dropped.map((name) =>
          droppedField(name, `${name}: this subscription upstream does not take it`)
        ),
      );
    }
  }
  const adjustedHeaders = sub && sub.betas.length > 0
    ? {
      ...adjusted.headers,
      "anthropic-beta": [adjusted.headers["anthropic-beta"], ...sub.betas].filter(Boolean).join(","),
    }
    : adjusted.headers;
  // A stream collected for a non-stream client is read like a stream (first content, total duration).
  const collect = preset.alwaysStream === true && !request.stream;
  const streamLimits = request.stream || collect;
  const base = {
    client: deps.clients.get(provider.clientId, `${provider.baseUrl}|${provider.apiType}`),
    clientSignal: caller.clientSignal,
    headersTimeoutMs: deps.timeouts.headersMs,
    idleTimeoutMs: deps.timeouts.idleMs,
    firstContentTimeoutMs: streamLimits ? deps.limits.firstContentMs : undefined,
    maxStreamDurationMs: streamLimits ? deps.limits.maxStreamDurationMs : undefined,
  };
  if (preset.shaper && credential) {
    const failover = preset.shaper.failover;
    const shaped = preset.shaper.shape({
      baseUrl: provider.baseUrl.replace(/\/+$/, ""),
      accessToken: credential.accessToken,
      extra: credential.extra,
      body,
      model: attempt.upstreamModel,
      stream: upstreamStream,
      newId: deps.newId,
    });
    // Each body written once (hosts may share one), a long string a slice per turn, like any other call.
    const written = new Map<Record<string, unknown>, RequestBody | Promise<RequestBody>>();
    const bodies = shaped.map(({ json }) => {
      if (!written.has(json)) written.set(json, jsonRequestBody(json, caller.longStrings));
      return written.get(json)!;
    });
    const calls = (ready: readonly RequestBody[]): PreparedCall => {
      const [call, ...nextHosts] = shaped.map(({ url, headers }, i) => ({
        url,
        headers: withTrace(headers, trace),
        body: ready[i],
        ...base,
      }));
      return { request, codec, call, nextHosts, failover, collect, warnings };
    };
    return bodies.some((body) => body instanceof Promise)
      ? Promise.all(bodies).then(calls)
      : calls(bodies as RequestBody[]);
  }
  const prepared = (json: RequestBody): PreparedCall => ({
    request,
    codec,
    call: {
      url: preset.url(provider.baseUrl, attempt.upstreamModel, upstreamStream),
      headers: {
        "content-type": "application/json",
        accept: upstreamStream ? "text/event-stream" : "application/json",
        ...preset.authHeaders(provider.apiKey),
        ...forwardedHeaders(preset.format, caller.clientHeaders, adjustedHeaders),
        // The attempt span's `traceparent` (and `tracestate`), so the provider's trace joins the gateway's.
        ...trace,
      },
      body: json,
      ...base,
    },
    nextHosts: [],
    failover: () => false,
    collect,
    warnings,
  });
  // A long string (a big prompt, a base64 image) is encoded a slice per turn: in one step it held the
  // serving thread for 40-120 ms per 30 MiB.
  const json = jsonRequestBody(body, caller.longStrings);
  return typeof json === "string" ? prepared(json) : json.then(prepared);
}

/** Whether a provider's base URL is local, judged once per provider config (configs are replaced on reload). */
const localProviders = new WeakMap<ProviderConfig, boolean>();

/**
 * The attempt span's `traceparent` (and `tracestate`) for the upstream call; empty when there is none to
 * pass on. Built into the call's headers here rather than added by copying the finished call and its
 * headers (side by side, four fresh pairs: −0.4 to +1.7 % of a traced gateway's CPU per request, median of
 * their rounds 0.6 %).
 */
export type TraceHeaders = Readonly<Record<string, string>>;

/** Headers with the trace's added (the same object when there are none). */
function withTrace(headers: Record<string, string>, trace: TraceHeaders): Record<string, string> {
  for (const _ in trace) return { ...headers, ...trace };
  return headers;
}

/** The request as adjusted for one target, with the headers the adjustments ask for. */
type AdjustedRequest = {
  request: NeutralRequest;
  headers: Readonly<Record<string, string>>;
  /** What the adjustments lost or could not do (images stripped for a model without vision, or not fetched). */
  warnings: readonly GatewayWarning[];
};

/** Per-attempt adjustments (thinking, images, Claude Code, reasoning echo) and image prefetch. */
function adjustForTarget(
  deps: AttemptDeps,
  caller: CallerContext,
  request: NeutralRequest,
  attempt: Attempt,
  { provider, preset }: CallTarget,
  inlineImagesOnly: boolean,
): AdjustedRequest | Promise<AdjustedRequest> {
  let providerIsLocal = localProviders.get(provider);
  if (providerIsLocal === undefined) {
    providerIsLocal = isPrivateHost(new URL(provider.baseUrl));
    localProviders.set(provider, providerIsLocal);
  }
  const target = {
    upstreamFormat: preset.format,
    model: attempt.upstreamModel,
    capabilities: capabilitiesFor(
      attempt.upstreamModel,
      provider.capabilities?.[attempt.upstreamModel] ?? {},
    ),
    clientKind: caller.clientKind,
    providerIsLocal,
    inlineImagesOnly,
  };
  const adjusted = applyAdjustments(request, target);
  const urls = imagesToPrefetch(adjusted.request, target);
  if (urls.length === 0) return adjusted;
  // A local provider no longer implies local image URLs: private targets only when the operator says so.
  const allowPrivateTargets = deps.control.config.server.allowPrivateImageUrls;
  return prefetchImages(adjusted.request, urls, systemPrefetchDeps({ allowPrivateTargets }))
    .then((fetched) => ({
      request: fetched.request,
      headers: adjusted.headers,
      // The image stays a URL the upstream may not accept; the reason (refused target, timeout, …) is logged.
      warnings: [...adjusted.warnings, ...fetched.warnings],
    }));
}

/** Client headers a messages upstream needs (API version, beta flags merged with adjustment betas). */
function forwardedHeaders(
  format: UpstreamFormat,
  headers: Headers,
  adjusted: Readonly<Record<string, string>>,
): Record<string, string> {
  if (format !== "messages") return {};
  const out: Record<string, string> = {
    "anthropic-version": headers.get("anthropic-version") ?? DEFAULT_ANTHROPIC_VERSION,
  };
  const betas = [headers.get("anthropic-beta"), adjusted["anthropic-beta"]].filter((b): b is string => !!b);
  const unique = [
    ...new Set(betas.flatMap((b) => b.split(",").map((s) => s.trim()).filter((s) => s !== ""))),
  ];
  if (unique.length > 0) out["anthropic-beta"] = unique.join(",");
  return out;
}
