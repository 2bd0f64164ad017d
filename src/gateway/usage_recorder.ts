import {
  buildPriceTable,
  BUILTIN_KIND_PRICES,
  BUILTIN_PRICES,
  costOf,
  lookupPrice,
  type Price,
  type PriceMatch,
  type PriceTable,
  requestTexts,
  usageKindOf,
} from "../accounting/mod.ts";
import type { NeutralRequest, Usage, WireFormat } from "../model/mod.ts";
import type { Store, UsageRow } from "../storage/mod.ts";
import type { BatchedWriter } from "./batched_writer.ts";
import type { BudgetGuard } from "./budget_guard.ts";
import { type ClientIdentity, identityKeyId, identityLabel } from "./identity.ts";
import { log } from "../log.ts";
import type { LongStrings } from "../long_strings.ts";

/** The chat builtins and, beside them, the embedding, image and audio models' (overrides win over both). */
const BUILTIN_WITH_KINDS = { ...BUILTIN_PRICES, ...BUILTIN_KIND_PRICES };

/** Bound on the per-model price cache (model names can come from clients). */
const MAX_CACHED_PRICES = 4096;

/** One attempt's outcome to record. */
export interface AttemptRecord {
  /** The client surface: a chat wire format, or the other kinds' `images`, `audio`, `embeddings`, `rerank`. */
  readonly clientFormat: WireFormat | "images" | "audio" | "embeddings" | "rerank";
  /** The surface's endpoint (`completions` on chat completions, `generate` on the local runner): the kind. */
  readonly endpoint?: string;
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
  /**
   * The cost in the kind's own unit (per image, second or character) for the model's price; token prices
   * are used without it. A row with it is never estimated: its unit is not tokens.
   */
  readonly cost?: (price: Price | null) => number;
  /** The pieces the request holds its long strings in, for an estimate (src/long_strings.ts). */
  readonly longStrings?: LongStrings;
}

/**
 * Counts texts with the reference tokenizer off the serving thread (the runtime's TokenCounter);
 * `longStrings` as in AttemptRecord.
 */
export type CountTokens = (texts: readonly string[], longStrings?: LongStrings) => Promise<number>;

/**
 * Turns attempt outcomes into usage rows with cost and hands them to the batched writer. Successful
 * attempts without upstream usage are estimated with a real tokenizer, on the token-count worker: the
 * tokenizer's tables (about 20 MB, a third of a second to build) never load on the serving thread, and a
 * large prompt is counted there too, so no estimate holds up other requests. Failed ones record zero tokens.
 */
export class UsageRecorder {
  readonly #store: Store;
  readonly #writer: BatchedWriter;
  readonly #budgets: BudgetGuard;
  readonly #count: CountTokens;
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
    count: CountTokens,
  ) {
    this.#count = count;
    this.#store = store;
    this.#writer = writer;
    this.#budgets = budgets;
    this.#prices = buildPriceTable(BUILTIN_WITH_KINDS, overrides);
  }

  /** Rebuilds the price table after overrides change. */
  setOverrides(overrides: Parameters<typeof buildPriceTable>[1]): void {
    this.#prices = buildPriceTable(BUILTIN_WITH_KINDS, overrides);
    this.#priceOf = new Map();
  }

  /** What `usage` costs on `routeModel` (USD; 0 for a model without a price). */
  cost(routeModel: string, usage: Usage): number {
    return costOf(usage, this.#price(routeModel)?.price ?? null);
  }

  /** Registers a listener for every recorded row (live dashboard). */
  onRecord(listener: (row: UsageRow) => void): void {
    this.#listeners.push(listener);
  }

  /**
   * Records one attempt outcome and returns its row. A success without upstream usage is estimated by the
   * token-count worker and recorded when the count arrives (`settled()` waits for those rows): then the row
   * comes as a promise (null if it was lost).
   */
  record(attempt: AttemptRecord, now: number): UsageRow | Promise<UsageRow | null> {
    const success = attempt.status >= 200 && attempt.status < 300;
    const usage = attempt.usage;
    const needsEstimate = success && attempt.cost === undefined &&
      (usage === null || (usage.inputTotal === 0 && usage.output === 0));
    if (!needsEstimate) return this.#write(attempt, usage, now);
    const row: Promise<UsageRow | null> = this.#estimate(attempt)
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
      .catch((error) => {
        log("error", `a usage row was lost: ${(error as Error).message}`);
        return null;
      });
    const waiting: Promise<void> = row.then(() => {
      this.#waiting.delete(waiting);
    });
    this.#waiting.add(waiting);
    return row;
  }

  /** Resolves once every row waiting for the tokenizer is recorded (shutdown flushes after this). */
  async settled(): Promise<void> {
    while (this.#waiting.size > 0) await Promise.all(this.#waiting);
  }

  /** Input and output tokens counted on the worker; the input's fixed overheads (images, turns) added. */
  async #estimate(attempt: AttemptRecord): Promise<Usage> {
    const { texts, fixed } = requestTexts(attempt.request);
    const [input, output] = await Promise.all([
      this.#count(texts, attempt.longStrings),
      this.#count([attempt.outputText ?? ""]),
    ]);
    return { inputTotal: fixed + input, cacheRead: 0, cacheWrite: 0, output, reasoning: 0, estimated: true };
  }

  #write(attempt: AttemptRecord, usage: Usage | null, now: number): UsageRow {
    const tokens = usage ?? { inputTotal: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 };
    const match = this.#price(attempt.routeModel);
    const price = match?.price ?? null;
    const cost = attempt.cost ? attempt.cost(price) : costOf(tokens, price);
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
      kind: usageKindOf(attempt.clientFormat, attempt.endpoint),
    };
    this.#budgets.add(row.clientKeyId, cost, now);
    this.#writer.collect(this.#insertRows, row);
    for (const listener of this.#listeners) listener(row);
    return row;
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
