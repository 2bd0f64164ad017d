/**
 * Budget alerts delivered as signed webhook POSTs, off the request path: `enqueue` returns at once and a
 * single background loop sends, with a bounded number of attempts and exponential backoff. fetch, the clock
 * and the wait between attempts are passed in. Signature: src/accounting/webhook_signature.ts.
 */
import { type BudgetPeriodName, type PeriodBudgetStatus } from "../accounting/mod.ts";
import { SIGNATURE_HEADER, signWebhook } from "../accounting/webhook_signature.ts";
import { log } from "../log.ts";

/** The event types a budget webhook carries. */
export type BudgetEventType = "budget.warning" | "budget.exceeded";

/** The JSON body of a budget webhook. */
export interface BudgetEvent {
  readonly id: string;
  readonly type: BudgetEventType;
  /** RFC 3339. */
  readonly created_at: string;
  readonly budget: {
    readonly id: number;
    readonly scope: "key" | "group" | "global";
    /** The key's or group's name ("" for global). */
    readonly scope_name: string;
    readonly period: BudgetPeriodName;
    readonly window_seconds?: number;
    readonly limit: number;
    readonly warn_pct: number;
  };
  readonly spent: number;
  readonly percentage: number;
  /** RFC 3339: the window's start, and when spend is next under the limit. */
  readonly window_start: string;
  readonly resets_at: string;
}

/** Builds the event for a budget that crossed a level. */
export function budgetEvent(
  input: {
    readonly id: string;
    readonly budgetId: number;
    readonly scope: "key" | "group" | "global";
    readonly scopeName: string;
    readonly warnPct: number;
    readonly status: PeriodBudgetStatus;
  },
  nowMs: number,
): BudgetEvent {
  const s = input.status;
  return {
    id: input.id,
    type: s.status === "exceeded" ? "budget.exceeded" : "budget.warning",
    created_at: new Date(nowMs).toISOString(),
    budget: {
      id: input.budgetId,
      scope: input.scope,
      scope_name: input.scopeName,
      period: s.period.kind,
      ...(s.period.kind === "rolling" ? { window_seconds: Math.round(s.period.durationMs / 1000) } : {}),
      limit: s.limit,
      warn_pct: input.warnPct,
    },
    spent: Math.round(s.spent * 1e6) / 1e6,
    percentage: Math.round(s.percentage * 100) / 100,
    window_start: new Date(s.windowStart).toISOString(),
    resets_at: new Date(s.resetAt).toISOString(),
  };
}

/** One delivery to make. */
export interface WebhookDelivery {
  readonly url: string;
  readonly secret: string;
  readonly event: BudgetEvent;
}

/** What happened to a delivery (for the dashboard's alert list and tests). */
export interface DeliveryOutcome {
  readonly id: string;
  readonly url: string;
  readonly delivered: boolean;
  readonly attempts: number;
  /** The last status or error when not delivered. */
  readonly lastError: string | null;
}

/** What the sender needs from outside. */
export interface WebhookSenderDeps {
  readonly fetch: (url: string, init: RequestInit) => Promise<Response>;
  /** Epoch ms (the signature's timestamp). */
  readonly now: () => number;
  /** Waits between attempts (tests pass one that records and returns at once). */
  readonly sleep: (ms: number) => Promise<void>;
  /** Attempts per delivery, the first included (default 5). */
  readonly maxAttempts?: number;
  /** The first retry's wait; each next one doubles, up to maxDelayMs (defaults 1 s and 60 s). */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Each attempt's time limit (default 10 s). */
  readonly timeoutMs?: number;
  /** Deliveries waiting at most; beyond it the oldest is dropped and logged (default 1000). */
  readonly maxQueued?: number;
  readonly onOutcome?: (outcome: DeliveryOutcome) => void;
}

/** Statuses worth another attempt: the receiver is busy or broken now, not refusing this delivery. */
function retryable(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

/**
 * Sends budget webhooks one at a time in the background. A 2xx is delivered; a network error, a timeout,
 * 408, 425, 429 or 5xx is tried again after 1 s, 2 s, 4 s, … (capped) until maxAttempts; any other status
 * is final. The request path only ever calls `enqueue`.
 */
export class WebhookSender {
  readonly #deps: WebhookSenderDeps;
  readonly #queue: WebhookDelivery[] = [];
  #running: Promise<void> | null = null;
  #closed = false;

  constructor(deps: WebhookSenderDeps) {
    this.#deps = deps;
  }

  /** Queues a delivery and returns at once. */
  enqueue(delivery: WebhookDelivery): void {
    if (this.#closed) return;
    this.#queue.push(delivery);
    const max = this.#deps.maxQueued ?? 1000;
    if (this.#queue.length > max) {
      const dropped = this.#queue.shift()!;
      log("warn", `budget webhook queue full: dropped event ${dropped.event.id} for ${dropped.url}`);
    }
    this.#kick();
  }

  #kick(): void {
    if (this.#running !== null) return;
    this.#running = this.#run().finally(() => {
      this.#running = null;
      // A delivery queued between the loop's last look and here must not wait for the next enqueue.
      if (this.#queue.length > 0) this.#kick();
    });
  }

  /** Resolves when every queued delivery has been delivered or given up on. */
  async idle(): Promise<void> {
    while (this.#running !== null) await this.#running;
  }

  /** Stops taking deliveries; the ones queued are still tried (await idle() to wait for them). */
  close(): void {
    this.#closed = true;
  }

  async #run(): Promise<void> {
    for (let next = this.#queue.shift(); next !== undefined; next = this.#queue.shift()) {
      const outcome = await this.#deliver(next);
      if (!outcome.delivered) {
        log(
          "warn",
          `budget webhook ${outcome.id} to ${outcome.url} failed after ${outcome.attempts} attempts: ${outcome.lastError}`,
        );
      }
      this.#deps.onOutcome?.(outcome);
    }
  }

  async #deliver(delivery: WebhookDelivery): Promise<DeliveryOutcome> {
    const maxAttempts = Math.max(this.#deps.maxAttempts ?? 5, 1);
    const base = this.#deps.baseDelayMs ?? 1000;
    const body = JSON.stringify(delivery.event);
    let lastError: string | null = null;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (attempt > 1) {
        await this.#deps.sleep(Math.min(base * 2 ** (attempt - 2), this.#deps.maxDelayMs ?? 60_000));
      }
      // Signed per attempt: the timestamp must be fresh for the receiver's tolerance.
      const signature = await signWebhook(delivery.secret, body, Math.floor(this.#deps.now() / 1000));
      try {
        const response = await this.#deps.fetch(delivery.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "user-agent": "gateway-budget-webhook",
            [SIGNATURE_HEADER]: signature,
            "x-gateway-event": delivery.event.type,
            "x-gateway-delivery": delivery.event.id,
          },
          body,
          redirect: "manual",
          signal: AbortSignal.timeout(this.#deps.timeoutMs ?? 10_000),
        });
        await response.body?.cancel();
        if (response.status >= 200 && response.status < 300) {
          return {
            id: delivery.event.id,
            url: delivery.url,
            delivered: true,
            attempts: attempt,
            lastError: null,
          };
        }
        lastError = `HTTP ${response.status}`;
        if (!retryable(response.status)) {
          return { id: delivery.event.id, url: delivery.url, delivered: false, attempts: attempt, lastError };
        }
      } catch (error) {
        lastError = (error as Error).message;
      }
    }
    return { id: delivery.event.id, url: delivery.url, delivered: false, attempts: maxAttempts, lastError };
  }
}
