import { type Database, transaction } from "./database.ts";

/** One stored response as written: JSON texts and the facts the sweeps and caps need. */
export interface StoredResponseRow {
  /** Whose it is: `key:<id>`, `static:<label>` or `anonymous` (the rate-limit scope of the caller). */
  readonly owner: string;
  readonly id: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  /** The upstream account that answered ('' when unknown). */
  readonly accountId: string;
  /** The answering account is a Responses upstream that stored the response under the same id. */
  readonly upstreamKept: boolean;
  /**
   * The conversation the response answered, as a JSON array of Responses input items: the text, or the
   * parts it was written in beforehand (`putPart`), for a big conversation.
   */
  readonly inputItems: string | StagedParts;
  /** The response object the client received, as JSON. */
  readonly response: string;
  /** The output items by id, for item references. */
  readonly items: readonly { readonly id: string; readonly item: string }[];
}

/** Parts written with `putPart` under `stage`: seq 0 to count - 1, `chars` UTF-16 units in all. */
export interface StagedParts {
  readonly stage: string;
  readonly count: number;
  readonly chars: number;
}

/** What a read gives back (texts still JSON). */
export interface StoredResponseRecord {
  readonly id: string;
  readonly createdAt: number;
  readonly accountId: string;
  readonly upstreamKept: boolean;
  /** The conversation's JSON, or where its parts are (read them with `part`). */
  readonly inputItems: string | Omit<StagedParts, "chars">;
  readonly response: string;
}

interface Row {
  id: string;
  created_at: number;
  account_id: string;
  upstream_kept: number;
  input_items: string;
  input_stage: string;
  input_parts: number;
  response: string;
}

/** How many of an owner's oldest responses `trim` reads at a time. */
const TRIM_BATCH = 64;
/** Parts no response names (a save cut short) are swept once they are this old. */
export const ORPHAN_PART_MS = 3600 * 1000;

/**
 * The stored_responses tables (SQLite or PostgreSQL): the Responses API's server-side state. Writes are
 * immediate, not batched: the client may name the response in its very next request, on any process. Each
 * write that adds or removes a response keeps its owner's total in stored_response_owners in the same
 * transaction, so the size cap costs one row read however many responses an owner has. A big conversation
 * is written in parts beforehand, one part a call (`putPart`), and its row names them: written at once, a
 * 30 MiB text was one step of the serving thread of 70-230 ms.
 */
export class StoredResponsesRepo {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Writes a response and its items (replacing an earlier row of the same owner and id). */
  put(row: StoredResponseRow): void {
    const input = row.inputItems;
    const inline = typeof input === "string";
    const bytes = (inline ? input.length : input.chars) + row.response.length +
      row.items.reduce((sum, i) => sum + i.item.length, 0);
    transaction(this.#db, () => {
      const replaced = this.#db.prepare(
        "SELECT bytes, input_stage FROM stored_responses WHERE owner = ? AND id = ?",
      ).get(row.owner, row.id) as { bytes: number; input_stage: string } | undefined;
      if (replaced !== undefined) this.#deleteParts(replaced.input_stage);
      this.#db.prepare("DELETE FROM stored_response_items WHERE owner = ? AND response_id = ?").run(
        row.owner,
        row.id,
      );
      const item = this.#db.prepare(
        `INSERT INTO stored_response_items (owner, item_id, response_id, expires_at, item) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (owner, item_id) DO UPDATE SET response_id = excluded.response_id,
           expires_at = excluded.expires_at, item = excluded.item`,
      );
      for (const i of row.items) item.run(row.owner, i.id, row.id, row.expiresAt, i.item);
      this.#db.prepare(
        `INSERT INTO stored_responses
           (owner, id, created_at, expires_at, account_id, upstream_kept, input_items, input_stage, input_parts,
            response, bytes)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (owner, id) DO UPDATE SET created_at = excluded.created_at, expires_at = excluded.expires_at,
           account_id = excluded.account_id, upstream_kept = excluded.upstream_kept,
           input_items = excluded.input_items, input_stage = excluded.input_stage,
           input_parts = excluded.input_parts, response = excluded.response, bytes = excluded.bytes`,
      ).run(
        row.owner,
        row.id,
        row.createdAt,
        row.expiresAt,
        row.accountId,
        row.upstreamKept ? 1 : 0,
        inline ? input : "",
        inline ? "" : input.stage,
        inline ? 0 : input.count,
        row.response,
        bytes,
      );
      this.#addBytes(row.owner, bytes - Number(replaced?.bytes ?? 0));
    });
  }

  /** The owner's response `id`, unless it expired by `now`. */
  get(owner: string, id: string, now: number): StoredResponseRecord | null {
    const row = this.#db.prepare(
      `SELECT id, created_at, account_id, upstream_kept, input_items, input_stage, input_parts, response
       FROM stored_responses WHERE owner = ? AND id = ? AND expires_at > ?`,
    ).get(owner, id, now) as Row | undefined;
    return row === undefined ? null : {
      id: row.id,
      createdAt: Number(row.created_at),
      accountId: row.account_id,
      upstreamKept: Number(row.upstream_kept) === 1,
      inputItems: row.input_stage === ""
        ? row.input_items
        : { stage: row.input_stage, count: Number(row.input_parts) },
      response: row.response,
    };
  }

  /**
   * Writes one part of a big conversation's JSON ahead of the row that will name it (`put`), in a
   * transaction of its own, so the serving thread writes one part a turn.
   */
  putPart(stage: string, seq: number, part: string, createdAt: number): void {
    this.#db.prepare(
      `INSERT INTO stored_response_parts (stage, seq, created_at, part) VALUES (?, ?, ?, ?)
       ON CONFLICT (stage, seq) DO UPDATE SET created_at = excluded.created_at, part = excluded.part`,
    ).run(stage, seq, createdAt, part);
  }

  /** Part `seq` of the parts written under `stage` (null when there is none, e.g. its response was dropped). */
  part(stage: string, seq: number): string | null {
    const row = this.#db.prepare("SELECT part FROM stored_response_parts WHERE stage = ? AND seq = ?")
      .get(stage, seq) as { part: string } | undefined;
    return row?.part ?? null;
  }

  /** Deletes the parts written under `stage` that no response names (a save that was given up). */
  dropStage(stage: string): void {
    this.#deleteParts(stage);
  }

  /** The owner's stored output item `itemId` (JSON), unless it expired by `now`. */
  item(owner: string, itemId: string, now: number): string | null {
    const row = this.#db.prepare(
      "SELECT item FROM stored_response_items WHERE owner = ? AND item_id = ? AND expires_at > ?",
    ).get(owner, itemId, now) as { item: string } | undefined;
    return row?.item ?? null;
  }

  /** Deletes the owner's response `id` and its items; false when there was none. */
  delete(owner: string, id: string): boolean {
    return transaction(this.#db, () => this.#delete(owner, id));
  }

  /** The bytes the owner's stored responses count toward its size cap. */
  ownerBytes(owner: string): number {
    const row = this.#db.prepare("SELECT bytes FROM stored_response_owners WHERE owner = ?").get(owner) as
      | { bytes: number }
      | undefined;
    return Number(row?.bytes ?? 0);
  }

  /** Deletes what expired by `now`; returns how many responses. */
  prune(now: number): number {
    return transaction(this.#db, () => {
      const expired = this.#db.prepare(
        "SELECT owner, SUM(bytes) AS bytes FROM stored_responses WHERE expires_at <= ? GROUP BY owner",
      ).all(now) as unknown as { owner: string; bytes: number }[];
      for (const { owner, bytes } of expired) this.#addBytes(owner, -Number(bytes));
      this.#db.prepare(
        `DELETE FROM stored_response_parts WHERE stage IN
           (SELECT input_stage FROM stored_responses WHERE expires_at <= ? AND input_stage <> '')`,
      ).run(now);
      // Parts of a save that never reached its row: old enough that no save still writing them is left.
      this.#db.prepare(
        `DELETE FROM stored_response_parts WHERE created_at <= ? AND stage NOT IN
           (SELECT input_stage FROM stored_responses WHERE input_stage <> '')`,
      ).run(now - ORPHAN_PART_MS);
      this.#db.prepare("DELETE FROM stored_response_items WHERE expires_at <= ?").run(now);
      return Number(this.#db.prepare("DELETE FROM stored_responses WHERE expires_at <= ?").run(now).changes);
    });
  }

  /** Drops the owner's oldest responses until what is left is at most `maxBytes`; returns how many went. */
  trim(owner: string, maxBytes: number): number {
    if (this.ownerBytes(owner) <= maxBytes) return 0;
    return transaction(this.#db, () => {
      // Read again inside the transaction: another process may have trimmed since.
      let excess = this.ownerBytes(owner) - maxBytes;
      let dropped = 0;
      const oldest = this.#db.prepare(
        "SELECT id, bytes FROM stored_responses WHERE owner = ? ORDER BY created_at, id LIMIT ?",
      );
      while (excess > 0) {
        const rows = oldest.all(owner, TRIM_BATCH) as unknown as { id: string; bytes: number }[];
        if (rows.length === 0) break;
        for (const row of rows) {
          if (excess <= 0) break;
          this.#delete(owner, row.id);
          excess -= Number(row.bytes);
          dropped++;
        }
      }
      return dropped;
    });
  }

  /** Deletes one response and its items and takes its bytes off the owner's total (inside a transaction). */
  #delete(owner: string, id: string): boolean {
    const row = this.#db.prepare("SELECT bytes, input_stage FROM stored_responses WHERE owner = ? AND id = ?")
      .get(owner, id) as { bytes: number; input_stage: string } | undefined;
    this.#db.prepare("DELETE FROM stored_response_items WHERE owner = ? AND response_id = ?").run(owner, id);
    if (row === undefined) return false;
    this.#deleteParts(row.input_stage);
    this.#db.prepare("DELETE FROM stored_responses WHERE owner = ? AND id = ?").run(owner, id);
    this.#addBytes(owner, -Number(row.bytes));
    return true;
  }

  #deleteParts(stage: string): void {
    if (stage !== "") this.#db.prepare("DELETE FROM stored_response_parts WHERE stage = ?").run(stage);
  }

  #addBytes(owner: string, delta: number): void {
    if (delta === 0) return;
    this.#db.prepare(
      `INSERT INTO stored_response_owners (owner, bytes) VALUES (?, ?)
       ON CONFLICT (owner) DO UPDATE SET bytes = stored_response_owners.bytes + excluded.bytes`,
    ).run(owner, delta);
  }
}
