import {
  buildPriceTable,
  BUILTIN_PRICES,
  costOf,
  countTextTokens,
  estimateRequestTokens,
  loadTokenizer,
  lookupPrice,
  type PriceMatch,
  type PriceTable,
  timePacer,
  tokenizerLoaded,
} from "../accounting/mod.ts";
import type { NeutralRequest, Usage, WireFormat } from "../model/mod.ts";
import type { Store, UsageRow } from "../storage/mod.ts";
import type { BatchedWriter } from "./batched_writer.ts";
import type { BudgetGuard } from "./budget_guard.ts";
import { type ClientIdentity, identityKeyId, identityLabel } from "./identity.ts";
import { log } from "../log.ts";

/** Bound on the per-model price cache (model names can come from clients). */
const MAX_CACHED_PRICES = 4096;

/** One attempt's outcome to record. */
export interface AttemptRecord {
  readonly clientFormat: WireFormat;
  readonly identity: ClientIdentity;
  readonly request: NeutralRequest;
  /** `<prefix>/<model>` as routed. */
  readonly routeModel: string;
  readonly upstreamModel: string;
  /** The provider row (an inventory account is filed under its row). */
  readonly providerId: string;
  /** The account that answered; the provider row's id when absent. */
  readonly accountId?: string;
  readonly status: number;
  readonly usage: Usage | null;
  /** Output text seen, for an estimate when the upstream reported no usage. */
  readonly outputText?: string;
  readonly latencyMs: number;
  readonly streamed: boolean;
  readonly error?: string;
}

/**
 * Turns attempt outcomes into usage rows with cost and hands them to the batched writer. Successful
 * attempts without upstream usage are estimated with a real tokenizer; failed ones record zero tokens.
 */
export class UsageRecorder {
  readonly #store: Store;
  readonly #writer: BatchedWriter;
  readonly #budgets: BudgetGuard;
  #prices: PriceTable;
  /** Prices found per routed model; progressive matching is not free and models repeat. */
  #priceOf = new Map<string, PriceMatch | null>();
  readonly #listeners: ((row: UsageRow) => void)[] = [];
  /** Rows waiting for the tokenizer (see `record`). */
  readonly #waiting = new Set<Promise<void>>();
  #tokenizerFailureReported = false;
  /** Writes one flush's rows (and their rollup) together; see BatchedWriter.collect. */
  readonly #insertRows = (rows: UsageRow[]) => this.#store.usage.insert(rows);

  constructor(
    store: Store,
    writer: BatchedWriter,
    budgets: BudgetGuard,
    overrides: Parameters<typeof buildPriceTable>[1],
  ) {
    this.#store = store;
    this.#writer = writer;
    this.#budgets = budgets;
    this.#prices = buildPriceTable(BUILTIN_PRICES, overrides);
  }

  /** Rebuilds the price table after overrides change. */
  setOverrides(overrides: Parameters<typeof buildPriceTable>[1]): void {
    this.#prices = buildPriceTable(BUILTIN_PRICES, overrides);
    this.#priceOf = new Map();
  }

  /** Registers a listener for every recorded row (live dashboard). */
  onRecord(listener: (row: UsageRow) => void): void {
    this.#listeners.push(listener);
  }

  /**
   * Records one attempt outcome. A success without upstream usage is estimated; the first one waits for
   * the tokenizer to load (see loadTokenizer) and is recorded when it has. Building the tokenizer's
   * tables holds the event loop once, for about a third of a second, as it did at every startup before.
   */
  record(attempt: AttemptRecord, now: number): void {
    const success = attempt.status >= 200 && attempt.status < 300;
    const usage = attempt.usage;
    const needsEstimate = success && (usage === null || (usage.inputTotal === 0 && usage.output === 0));
    if (!needsEstimate) {
      this.#write(attempt, usage, now);
      return;
    }
    // A large request is counted in slices between other work (see countTextTokens) and recorded after.
    const estimate = tokenizerLoaded()
      ? this.#estimate(attempt)
      : loadTokenizer().then(() => this.#estimate(attempt));
    if (!(estimate instanceof Promise)) {
      this.#write(attempt, estimate, now);
      return;
    }
    const waiting: Promise<void> = estimate
      .catch((error) => {
        // The row still counts the request; its tokens stay unknown (zero) rather than invented.
        if (!this.#tokenizerFailureReported) {
          this.#tokenizerFailureReported = true;
          log(
            "error",
            `the tokenizer failed; usage without token counts is recorded as 0: ${(error as Error).message}`,
          );
        }
        return usage;
      })
      .then((estimated) => this.#write(attempt, estimated, now))
      // Nothing here may reject: the promise is awaited at shutdown and is no one's to handle.
      .catch((error) => log("error", `a usage row was lost: ${(error as Error).message}`))
      .finally(() => this.#waiting.delete(waiting));
    this.#waiting.add(waiting);
  }

  /** Resolves once every row waiting for the tokenizer is recorded (shutdown flushes after this). */
  async settled(): Promise<void> {
    while (this.#waiting.size > 0) await Promise.all(this.#waiting);
  }

  /** The estimate at once when both counts fit in one slice of work, else a promise of it. */
  #estimate(attempt: AttemptRecord): Usage | Promise<Usage> {
    // One pacer for both counts, so together they take one slice before pausing.
    const pacer = timePacer();
    const input = estimateRequestTokens(attempt.request, pacer);
    const output = countTextTokens([attempt.outputText ?? ""], pacer);
    const usage = (inputTotal: number, output: number): Usage => ({
      inputTotal,
      cacheRead: 0,
      cacheWrite: 0,
      output,
      reasoning: 0,
      estimated: true,
    });
    if (typeof input === "number" && typeof output === "number") return usage(input, output);
    return Promise.all([input, output]).then(([i, o]) => usage(i, o));
  }

  #write(attempt: AttemptRecord, usage: Usage | null, now: number): void {
    const tokens = usage ?? { inputTotal: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 };
    const match = this.#price(attempt.routeModel);
    const cost = costOf(tokens, match?.price ?? null);
    const row: UsageRow = {
      ts: now,
      clientFormat: attempt.clientFormat,
      requestModel: attempt.request.model,
      model: attempt.routeModel,
      providerId: attempt.providerId,
      accountId: attempt.accountId ?? attempt.providerId,
      clientKeyId: identityKeyId(attempt.identity),
      clientKeyLabel: identityLabel(attempt.identity),
      status: attempt.status,
      inputTokens: tokens.inputTotal,
      cacheReadTokens: tokens.cacheRead,
      cacheCreationTokens: tokens.cacheWrite,
      outputTokens: tokens.output,
      reasoningTokens: tokens.reasoning,
      estimated: tokens.estimated === true,
      cost,
      priced: match !== null,
      latencyMs: Math.max(0, Math.round(attempt.latencyMs)),
      streamed: attempt.streamed,
      error: (attempt.error ?? "").slice(0, 2000),
    };
    this.#budgets.add(row.clientKeyId, cost, now);
    this.#writer.collect(this.#insertRows, row);
    for (const listener of this.#listeners) listener(row);
  }

  #price(model: string): PriceMatch | null {
    let match = this.#priceOf.get(model);
    if (match === undefined) {
      match = lookupPrice(this.#prices, model);
      if (this.#priceOf.size >= MAX_CACHED_PRICES) this.#priceOf.clear();
      this.#priceOf.set(model, match);
    }
    return match;
  }
}
