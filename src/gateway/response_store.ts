import { log } from "../log.ts";
import { LongStrings, type ParsedJson } from "../long_strings.ts";
import type { RuntimeSettings } from "../config/runtime_settings.ts";
import type { StoredResponseRecord, StoredResponsesRepo } from "../storage/mod.ts";
import type { UpstreamFormat } from "../model/mod.ts";
import { isRecord } from "../wire/shared/mod.ts";
import type { Answer, FrameSource } from "./answer.ts";
import { type ClientIdentity, identityRateScope } from "./identity.ts";
import {
  expandStoredState,
  inputItemsOf,
  itemsPage,
  type ItemsQuery,
  namesStoredState,
  redactItem,
  responseNotFound,
  type StoredTurn,
  type WireItem,
  withItemIds,
} from "./stored_conversation.ts";
import { PARTS_CHARS, readParts, redactPaced, writeParts } from "./stored_parts.ts";
import { isBigJson } from "../json_size.ts";

const DAY_MS = 24 * 3600 * 1000;
/** How often saving also sweeps expired rows (reads skip them anyway; the sweep only frees space). */
const SWEEP_EVERY_MS = 3600 * 1000;

/** What the store needs: its tables, the clock, the settings (TTL, cap) and the request-log redaction. */
export interface ResponseStoreDeps {
  readonly repo: StoredResponsesRepo;
  readonly now: () => number;
  readonly settings: () => RuntimeSettings;
  readonly redact: (text: string) => string;
  /**
   * The same redaction of a long string, given and given back in pieces, off the serving thread (null:
   * nothing to redact).
   */
  readonly redactLong: (pieces: readonly string[]) => Promise<readonly string[] | null>;
  /** Parses JSON the store wrote in parts, off the serving thread (its long strings come in pieces). */
  readonly parseStored: (parts: Uint8Array<ArrayBuffer>[]) => Promise<ParsedJson>;
}

/** A request body after `ResponseStore.expand`. */
export interface Expanded {
  /** The body with the stored conversation and referenced items put in. */
  readonly body: unknown;
  /** The pieces of the body's long strings: the request's, and a big stored conversation's. */
  readonly longStrings?: LongStrings;
  /**
   * The account that stored the previous response upstream (null: none did): an attempt on it is sent the
   * client's own body, `previous_response_id` included; any other attempt gets the expanded body.
   */
  readonly resumeOn: string | null;
}

/** The account that answered a request and the wire format it speaks (null when unknown). */
export interface AnsweredBy {
  readonly accountId: string;
  readonly format: UpstreamFormat | null;
}

/**
 * The Responses API's server-side state, for any upstream: a completed answer to a request with `store`
 * true (the API's default) is kept under its response id for the caller that made it, in the database
 * (shared by every worker and instance), until its TTL or the caller's size cap drops it. A later request's
 * `previous_response_id` and `item_reference`s are expanded from it before decoding, so whatever the
 * upstream format, it receives the whole conversation. Stored state counts toward no budget: only the
 * upstream call that answers is metered.
 */
export class ResponseStore {
  readonly #deps: ResponseStoreDeps;
  #sweptAt = Number.NEGATIVE_INFINITY;
  /**
   * Items a request body got from stored state: redacted when they were stored, so saving the next turn
   * does not redact them again (redaction costs the serving thread 20-35 ms a MB of text, and a long
   * conversation was redacted whole on every turn).
   */
  readonly #storedItems = new WeakSet<WireItem>();

  constructor(deps: ResponseStoreDeps) {
    this.#deps = deps;
  }

  /**
   * The request body with stored state put in (the same body when it names none), and the account that may
   * be sent the client's own body instead: a Responses upstream that stored the previous response itself.
   * Throws the OpenAI API's own 400 for an id that is unknown, expired or another caller's. A big stored
   * conversation is read across turns, its long strings added to `longStrings` (the request's).
   */
  async expand(body: unknown, identity: ClientIdentity, longStrings?: LongStrings): Promise<Expanded> {
    if (!namesStoredState(body)) return { body, resumeOn: null, longStrings };
    const record = body as Record<string, unknown>;
    const owner = identityRateScope(identity);
    const { repo, now } = this.#deps;
    const previous = typeof record.previous_response_id === "string"
      ? repo.get(owner, record.previous_response_id, now())
      : null;
    const read = previous === null ? null : await this.#inputOf(previous.inputItems);
    let pieces = longStrings;
    if (read?.longStrings !== undefined) {
      pieces ??= new LongStrings();
      pieces.addFrom(read.longStrings);
    }
    const expanded = expandStoredState(record, {
      turn: (id): StoredTurn | null => {
        if (previous === null || id !== previous.id || read === null) return null;
        const response = JSON.parse(previous.response) as { output?: WireItem[] };
        return { input: read.value as WireItem[], output: response.output ?? [] };
      },
      item: (id) => {
        const text = repo.item(owner, id, now());
        return text === null ? null : JSON.parse(text) as WireItem;
      },
      replayed: (item) => this.#storedItems.add(item),
    });
    // Item references name the gateway's items, which the upstream may not know: those turns resolve here.
    const resumable = previous !== null && previous.upstreamKept && previous.accountId !== "" &&
      !(Array.isArray(record.input) && record.input.some((i) => isRecord(i) && i.type === "item_reference"));
    return { body: expanded, resumeOn: resumable ? previous.accountId : null, longStrings: pieces };
  }

  /** A stored conversation's items: parsed here, or read in parts and parsed off the serving thread. */
  async #inputOf(input: StoredResponseRecord["inputItems"]): Promise<ParsedJson | null> {
    if (typeof input === "string") return { value: JSON.parse(input) };
    return await readParts(this.#deps.repo, input, this.#deps.parseStored);
  }

  /**
   * The answer, arranged so that its response is stored once complete (a stream at its
   * `response.completed` event). `body` is the expanded request, `longStrings` the pieces of its long
   * strings (`Expanded`); `answeredBy` names who answered. A big conversation is saved across turns, and the
   * answer waits for it: the client's next turn may name it at once.
   */
  async keep(
    answer: Answer,
    body: unknown,
    identity: ClientIdentity,
    answeredBy: () => AnsweredBy,
    longStrings?: LongStrings,
  ): Promise<Answer> {
    if (!isRecord(body) || body.store === false) return answer;
    const save = async (response: unknown) => {
      try {
        await this.#save(response, body, identity, answeredBy(), longStrings ?? new LongStrings());
      } catch (error) {
        // The client has its answer; a database that cannot take it costs only the stored state.
        log("warn", `stored response not kept: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
    if (answer.body.kind === "json") {
      await save(answer.body.value);
      return answer;
    }
    if (answer.body.kind !== "stream") return answer;
    return { ...answer, body: { ...answer.body, frames: onCompleted(answer.body.frames, save) } };
  }

  /** The caller's stored response object (`GET /v1/responses/{id}`); the API's 404 otherwise. */
  get(identity: ClientIdentity, id: string): unknown {
    const row = this.#deps.repo.get(identityRateScope(identity), id, this.#deps.now());
    if (row === null) throw responseNotFound(id);
    return JSON.parse(row.response);
  }

  /** A page of the items the caller's response `id` answered (`GET /v1/responses/{id}/input_items`). */
  async inputItems(identity: ClientIdentity, id: string, query: ItemsQuery): Promise<unknown> {
    const row = this.#deps.repo.get(identityRateScope(identity), id, this.#deps.now());
    const input = row === null ? null : await this.#inputOf(row.inputItems);
    if (input === null) throw responseNotFound(id);
    return itemsPage(input.value as WireItem[], query);
  }

  /** Deletes the caller's response `id` (`DELETE /v1/responses/{id}`); the API's 404 when there is none. */
  delete(identity: ClientIdentity, id: string): unknown {
    if (!this.#deps.repo.delete(identityRateScope(identity), id)) throw responseNotFound(id);
    return { id, object: "response", deleted: true };
  }

  /** Deletes every expired response (at start, then at most hourly as responses are saved). */
  sweep(): number {
    this.#sweptAt = this.#deps.now();
    return this.#deps.repo.prune(this.#sweptAt);
  }

  async #save(
    response: unknown,
    body: Record<string, unknown>,
    identity: ClientIdentity,
    by: AnsweredBy,
    longStrings: LongStrings,
  ): Promise<void> {
    if (!isRecord(response) || typeof response.id !== "string") return;
    if (response.status !== "completed" && response.status !== "incomplete") return;
    const { redact, redactLong, repo, now, settings } = this.#deps;
    const id = response.id;
    const owner = identityRateScope(identity);
    const items = inputItemsOf(body.input);
    const named = withItemIds(items, id);
    const stored = (i: number) => this.#storedItems.has(items[i]);
    const big = isBigJson(named, PARTS_CHARS);
    const input = big
      ? await redactPaced(named, stored, { redact, redactLong, longStrings })
      : named.map((item, i) => stored(i) ? item : redactItem(item, redact));
    const kept: WireItem = redactItem({
      ...response,
      store: true,
      previous_response_id: typeof body.previous_response_id === "string" ? body.previous_response_id : null,
    }, redact);
    const output: WireItem[] = Array.isArray(kept.output) ? kept.output.filter(isRecord) : [];
    const createdAt = now();
    const inputItems = big ? await writeParts(repo, input, longStrings, createdAt) : JSON.stringify(input);
    const current = settings();
    repo.put({
      owner,
      id,
      createdAt,
      expiresAt: createdAt + current.server_response_store_ttl_days * DAY_MS,
      accountId: by.accountId,
      // A Responses upstream keeps what it answered only when the client asked for `store: true` itself: the
      // gateway sends `store: false` otherwise (see src/wire/responses/request_encode.ts).
      upstreamKept: by.format === "responses" && body.store === true,
      inputItems,
      response: JSON.stringify(kept),
      items: output.filter((item) => typeof item.id === "string")
        .map((item) => ({ id: item.id as string, item: JSON.stringify(item) })),
    });
    repo.trim(owner, current.server_response_store_max_mb * 1024 * 1024);
    if (createdAt - this.#sweptAt >= SWEEP_EVERY_MS) this.sweep();
  }
}

/**
 * The frames as they are, handing the response of the `response.completed` (or `.incomplete`) event to
 * `save`: the one frame of a stream read back, since it is the response object the client now holds
 * (a Responses upstream's own item ids included, when its stream passes through).
 */
function onCompleted(source: FrameSource, save: (response: unknown) => Promise<void>): FrameSource {
  return {
    async next() {
      const frames = await source.next();
      if (frames === null) return null;
      for (const frame of frames) {
        if (!isFinalEvent(frame.event, frame.data)) continue;
        let event: unknown;
        try {
          event = JSON.parse(frame.data);
        } catch {
          // A frame that does not parse stores nothing; the stream goes on untouched.
        }
        if (isRecord(event)) await save(event.response);
      }
      return frames;
    },
    cancel: (reason) => source.cancel(reason),
  };
}

function isFinalEvent(event: string | undefined, data: string): boolean {
  if (event !== undefined) return event === "response.completed" || event === "response.incomplete";
  return data.includes('"response.completed"') || data.includes('"response.incomplete"');
}
