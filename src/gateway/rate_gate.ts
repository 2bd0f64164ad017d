/**
 * The request path's use of the rate limiter: one decision per request after authentication, the 429 in
 * the client's own format when a limit refuses, and the rate-limit headers of the answer. The limiter keeps
 * everything in memory; a refusal only for want of this process's share of a limit shared with other
 * processes waits for the next sync tick instead of answering 429.
 */
import {
  type RateDecision,
  type RateLimiter,
  rateLimitHeaders,
  type RateLimitHeaderStyle,
  type RateLimits,
  type RatePermit,
  requestTexts,
} from "../accounting/mod.ts";
import { GatewayError, type NeutralRequest, type WireFormat } from "../model/mod.ts";
import { type ClientIdentity, identityRateScope } from "./identity.ts";

/** What the gate needs: the limiter, each scope's limits, the clock and (with peers) the next sync tick. */
export interface RateGateDeps {
  readonly limiter: RateLimiter;
  readonly limitsOf: (identity: ClientIdentity) => RateLimits;
  readonly now: () => number;
  /** Resolves after the next exchange with the other processes; null while this process is alone. */
  readonly nextSync: () => Promise<void> | null;
}

/** An admitted request: its hold on the limits and the headers its answer carries. */
export interface Admission {
  readonly permit: RatePermit;
  readonly headers: Readonly<Record<string, string>>;
}

/** How many ticks a request refused only by its process's share waits before the refusal stands. */
const MAX_SYNC_WAITS = 2;
/** Characters per token for the tokens-per-minute estimate (settled with the real usage later). */
const CHARS_PER_TOKEN = 4;

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** The header family a surface's clients read, or null for surfaces whose APIs have none. */
export function rateLimitStyle(surface: WireFormat): RateLimitHeaderStyle | null {
  switch (surface) {
    case "chat_completions":
    case "responses":
      return "openai";
    case "messages":
      return "anthropic";
    case "generate_content":
    case "local_runner":
      return null;
  }
}

/** Admits requests under their key's limits. */
export class RateGate {
  readonly #deps: RateGateDeps;

  constructor(deps: RateGateDeps) {
    this.#deps = deps;
  }

  /**
   * Counts one request of `identity` or throws the 429 (with Retry-After and the limit headers). The permit
   * must be settled with the real usage and released when the request ends.
   */
  admit(
    identity: ClientIdentity,
    surface: WireFormat,
    request: NeutralRequest,
  ): Admission | Promise<Admission> {
    const limits = this.#deps.limitsOf(identity);
    if (limits.rpm === null && limits.tpm === null && limits.maxParallel === null) return UNLIMITED_ADMISSION;
    const scope = identityRateScope(identity);
    // Counting characters costs a walk over the request: only keys with a token limit pay it.
    const estimate = limits.tpm === null ? 0 : estimateTokens(request);
    const decision = this.#deps.limiter.check(scope, limits, estimate, this.#deps.now());
    if (decision.allowed || !decision.waitForSync) return this.#decided(decision, limits, surface);
    return this.#waitForShare(scope, limits, estimate, surface);
  }

  async #waitForShare(
    scope: string,
    limits: RateLimits,
    estimate: number,
    surface: WireFormat,
  ): Promise<Admission> {
    let decision: RateDecision | undefined;
    for (let wait = 0; wait < MAX_SYNC_WAITS; wait++) {
      const tick = this.#deps.nextSync();
      if (tick === null) break;
      await tick;
      decision = this.#deps.limiter.check(scope, limits, estimate, this.#deps.now());
      if (decision.allowed || !decision.waitForSync) break;
    }
    return this.#decided(
      decision ?? this.#deps.limiter.check(scope, limits, estimate, this.#deps.now()),
      limits,
      surface,
    );
  }

  #decided(decision: RateDecision, limits: RateLimits, surface: WireFormat): Admission {
    const style = rateLimitStyle(surface);
    const now = this.#deps.now();
    if (decision.allowed && decision.permit !== null) {
      const headers = style === null ? NO_HEADERS : rateLimitHeaders(style, decision, now);
      return { permit: decision.permit, headers };
    }
    const headers = style === null ? {} : rateLimitHeaders(style, decision, now);
    const seconds = Math.max(decision.retryAfterSeconds, 1);
    headers["retry-after"] = String(seconds);
    headers["retry-after-ms"] = String(Math.max(Math.ceil(decision.retryAfterMs), 1));
    throw new GatewayError(429, "rate_limit", refusalMessage(decision, limits, seconds), { headers });
  }
}

const UNLIMITED_ADMISSION: Admission = {
  permit: { settle() {}, release() {} },
  headers: NO_HEADERS,
};

function refusalMessage(decision: RateDecision, limits: RateLimits, seconds: number): string {
  const retry = `; retry in ${seconds} s`;
  switch (decision.deniedBy) {
    case "concurrency":
      return `Rate limit reached: this API key may run ${limits.maxParallel} requests at once${retry}`;
    case "tokens":
      return `Rate limit reached: this API key may use ${limits.tpm} tokens per minute${retry}`;
    case "requests":
    case null:
      return `Rate limit reached: this API key may send ${limits.rpm} requests per minute${retry}`;
  }
}

/** A cheap input-token estimate (characters / 4 plus fixed overheads): tokens per minute settle at usage. */
function estimateTokens(request: NeutralRequest): number {
  const { texts, fixed } = requestTexts(request);
  let chars = 0;
  for (const text of texts) chars += text.length;
  return fixed + Math.ceil(chars / CHARS_PER_TOKEN);
}
