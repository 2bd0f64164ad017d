import type { ClientKind } from "../adjustments/mod.ts";
import type { ProviderClients } from "../executors/http_clients.ts";
import type { Subscriptions } from "../executors/oauth/mod.ts";
import type { NeutralResponse, WireFormat } from "../model/mod.ts";
import type { FailureClassification } from "../routing/mod.ts";
import type { ControlPlane } from "./control_plane.ts";
import type { ClientIdentity } from "./identity.ts";
import type { RequestTiming } from "./request_timing.ts";
import type { RoutingService } from "./routing_service.ts";
import type { StreamSummary } from "./stream_meter.ts";
import type { TurnTokenStore } from "./turn_token_store.ts";
import type { TokenCounter } from "./token_counter.ts";
import type { UsageRow } from "../storage/mod.ts";
import type { FrameSource } from "./answer.ts";
import type { UsageRecorder } from "./usage_recorder.ts";
import type { GatewayWarning } from "./warnings.ts";
import type { LongStrings } from "../long_strings.ts";

/** Upstream timeouts (ms). */
export interface UpstreamTimeouts {
  readonly headersMs: number;
  readonly idleMs: number;
}

/** Defaults: generous for slow non-stream generations, strict enough to notice dead streams. */
export const DEFAULT_TIMEOUTS: UpstreamTimeouts = { headersMs: 300_000, idleMs: 120_000 };

/** What one upstream answer may cost (YAML `limits:`; the client-level ones live in ProviderClients). */
export interface AnswerLimits {
  /** Largest non-stream answer read; past it the attempt fails with a 502. */
  readonly maxAnswerBytes: number;
  /** Largest stream event or line, in characters. */
  readonly maxStreamEventChars: number;
  /** A stream's first content must arrive this long after the request. */
  readonly firstContentMs: number;
  /** Longest a stream may run from the request on; 0 = no limit. */
  readonly maxStreamDurationMs: number;
}

/** The long-lived parts one attempt uses. */
export interface AttemptDeps {
  readonly control: ControlPlane;
  readonly routing: RoutingService;
  readonly clients: ProviderClients;
  /** Subscription (OAuth) credentials and the per-kind call shapes. */
  readonly subscriptions: Subscriptions;
  readonly recorder: UsageRecorder;
  readonly now: () => number;
  readonly newId: () => string;
  readonly timeouts: UpstreamTimeouts;
  readonly limits: AnswerLimits;
  /** Opaque upstream tokens of tool calls: captured from answers, restored into replayed history. */
  readonly turnTokens: TurnTokenStore;
  /** Counts tokens off the serving thread (count_tokens, stream input estimates). */
  readonly counter: TokenCounter;
}

/**
 * What an attempt tells the request it serves. The request lifecycle implements it; attempts know only
 * this, so they cannot finish a request themselves.
 */
export interface AttemptListener {
  /** An attempt that answered (or committed a stream) lost these things in translation. */
  warned(warnings: readonly GatewayWarning[]): void;
  /** An answering attempt's usage cost this much (USD); told once per attempt that reported usage. */
  costed(usd: number): void;
  /** A stream committed: the client gets its first content (time to first token). */
  firstToken(): void;
  /** A committed stream is over (the client's body completed or was cancelled, or the upstream broke). */
  streamEnded(summary: StreamSummary): void;
  /** An attempt's usage row was recorded (a promise while its tokens are being estimated). */
  recorded(row: UsageRow | Promise<UsageRow | null>): void;
}

/** Who asked and how: the parts of the client request every attempt needs. */
export interface CallerContext {
  readonly surface: WireFormat;
  readonly identity: ClientIdentity;
  readonly clientHeaders: Headers;
  readonly clientKind: ClientKind;
  /** The client connection's signal (see DispatchInput.clientSignal). */
  readonly clientSignal: () => AbortSignal;
  readonly endpoint?: string;
  readonly listener: AttemptListener;
  /** The request's upstream-wait clock (x-gateway-overhead-ms). */
  readonly timing: RequestTiming;
  /**
   * The model id as the client sent it, thinking suffix included (`claude/sonnet(high)`, a combo name):
   * every answer and stream event names this, not the routed or upstream model.
   */
  readonly clientModel: string;
  /** Unique to this client request (its span id): the answer's id when the upstream gives none. */
  readonly answerId: string;
  /** The pieces of the request's long strings (DispatchInput.longStrings). */
  readonly longStrings?: LongStrings;
}

/** The outcome of one attempt. */
export type AttemptOutcome =
  | { readonly kind: "answer"; readonly response: NeutralResponse }
  /** A committed stream, already in the client's frames; the lifecycle makes it an Answer. */
  | { readonly kind: "stream"; readonly frames: FrameSource }
  | { readonly kind: "failure"; readonly message: string; readonly classification: FailureClassification };

/** A neutral answer or a committed stream: what a successful route produces. */
export type RouteSuccess = Exclude<AttemptOutcome, { kind: "failure" }>;
