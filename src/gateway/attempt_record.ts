import type { NeutralRequest, NeutralResponse, Usage } from "../model/mod.ts";
import type { Attempt } from "../routing/mod.ts";
import type { AttemptDeps, CallerContext } from "./attempt_context.ts";
import { identityRoutingKey } from "./identity.ts";
import type { AccountConfig } from "./inventory_accounts.ts";
import { streamEndStatus, type StreamSummary } from "./stream_meter.ts";
import type { AttemptTrace } from "../telemetry/mod.ts";
import { answeredEnd, failedEnd, streamedEnd } from "./trace_facts.ts";

/**
 * The usage row of one attempt, written exactly once however the attempt ends (an answer, a failure,
 * a client that left, a stream that completed or broke), and the account's success when it answered.
 * The attempt's span ends with it.
 */
export class AttemptRecord {
  readonly #deps: AttemptDeps;
  readonly #caller: CallerContext;
  readonly #request: NeutralRequest;
  readonly #attempt: Attempt;
  readonly #provider: AccountConfig;
  readonly #started: number;
  readonly #span: AttemptTrace;

  constructor(
    deps: AttemptDeps,
    caller: CallerContext,
    request: NeutralRequest,
    attempt: Attempt,
    provider: AccountConfig,
    span: AttemptTrace,
  ) {
    this.#span = span;
    this.#deps = deps;
    this.#caller = caller;
    this.#request = request;
    this.#attempt = attempt;
    this.#provider = provider;
    this.#started = deps.now();
  }

  /**
   * A failed attempt (status 0 for network failures, 499 when the client left); `cooldownSet` when the
   * failure cools the account down.
   */
  failed(status: number, error: string, cooldownSet = false): void {
    const redacted = this.#write(status, null, error, "", this.#request.stream);
    this.#span.end(failedEnd(status, redacted, cooldownSet));
  }

  /** A whole answer; the account answered, so it is marked healthy. */
  answered(response: NeutralResponse): void {
    const usage = response.usage.inputTotal > 0 || response.usage.output > 0 ? response.usage : null;
    this.#write(200, usage, "", outputTextOf(response), this.#request.stream);
    this.#span.end(answeredEnd(response));
    this.#succeed(usage);
  }

  /** A committed stream is over; only a stream that finished without error marks the account healthy. */
  streamEnded(summary: StreamSummary): void {
    const { status, error } = streamEndStatus(summary);
    const redacted = this.#write(
      status,
      summary.usageReported ? summary.usage : null,
      error,
      summary.outputText,
      true,
    );
    this.#span.end(streamedEnd(summary, status, redacted));
    if (status === 200) this.#succeed(summary.usageReported ? summary.usage : null);
  }

  /** The attempt's first content arrived (a stream committed). */
  firstToken(): void {
    this.#span.firstToken();
  }

  #succeed(usage: Usage | null): void {
    const deps = this.#deps;
    if (usage !== null) {
      this.#caller.listener.costed(deps.recorder.cost(this.#attempt.routeModel, usage));
      deps.routing.quota.usedTokens(this.#provider.id, usage.inputTotal + usage.output, deps.now());
    }
    deps.routing.succeed(this.#provider.id, this.#provider.prefix, identityRoutingKey(this.#caller.identity));
  }

  /** Writes the row; returns its error text, redacted. */
  #write(status: number, usage: Usage | null, error: string, outputText: string, streamed: boolean): string {
    const deps = this.#deps;
    // The usage row's error column is shown to every dashboard user: no upstream key may stay in it.
    const redacted = error === "" ? error : deps.control.redactor.redact(error);
    const row = deps.recorder.record({
      clientFormat: this.#caller.surface,
      ...(this.#caller.endpoint === undefined ? {} : { endpoint: this.#caller.endpoint }),
      identity: this.#caller.identity,
      request: this.#request,
      routeModel: this.#attempt.routeModel,
      upstreamModel: this.#attempt.upstreamModel,
      providerId: this.#provider.rowId,
      accountId: this.#provider.id,
      status,
      usage,
      outputText,
      latencyMs: deps.now() - this.#started,
      streamed,
      error: redacted,
      longStrings: this.#caller.longStrings,
    }, deps.now());
    this.#caller.listener.recorded(row);
    return redacted;
  }
}

/** Text, reasoning and tool calls of an answer, for token estimates and logs. */
export function outputTextOf(response: NeutralResponse): string {
  let text = "";
  for (const part of response.parts) {
    if (part.kind === "text" || part.kind === "reasoning") text += part.text;
    else if (part.kind === "toolCall") text += part.name + part.arguments;
  }
  return text;
}
