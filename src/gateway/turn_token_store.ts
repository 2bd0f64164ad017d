import type { NeutralRequest, Part, ProviderFamily, StreamEvent } from "../model/mod.ts";
import type { TurnTokensRepo, TurnTokensRow } from "../storage/mod.ts";
import type { StageSteps } from "../wire/shared/mod.ts";
import type { BatchedWriter } from "./batched_writer.ts";
import { type CallTokens, restoreTokens, tokensOfAnswer } from "./turn_tokens.ts";

/**
 * Characters of tokens kept in memory (and loaded at start). Signatures run to a few kilobytes and
 * signed thinking to tens: this holds the recent turns of many sessions in about 64 MB of strings.
 */
const MAX_CHARS = 32 * 1024 * 1024;
/** Rows older than this are deleted at start: a session resumed after a month starts a new tool turn. */
const MAX_AGE_MS = 30 * 24 * 3600 * 1000;

interface Entry {
  readonly tokens: CallTokens;
  readonly chars: number;
}

/**
 * Opaque upstream tokens of recent tool calls, kept for clients whose format cannot carry them back
 * (see turn_tokens.ts). Reads are from memory only; writes go through the batched writer, and a restart
 * loads the newest rows, so history replayed after a restart is still restored.
 */
export class TurnTokenStore {
  readonly #map = new Map<string, Entry>();
  #chars = 0;
  readonly #repo: TurnTokensRepo;
  readonly #writer: BatchedWriter;
  readonly #now: () => number;
  readonly #maxChars: number;
  readonly #write = (rows: TurnTokensRow[]) => this.#repo.put(rows);

  constructor(repo: TurnTokensRepo, writer: BatchedWriter, now: () => number, maxChars = MAX_CHARS) {
    this.#repo = repo;
    this.#writer = writer;
    this.#now = now;
    this.#maxChars = maxChars;
    repo.prune(now() - MAX_AGE_MS);
    const rows = repo.newest(maxChars);
    for (let i = rows.length - 1; i >= 0; i--) {
      try {
        this.#keep(rows[i].key, JSON.parse(rows[i].tokens) as CallTokens, rows[i].tokens.length);
      } catch {
        // A row that does not parse restores nothing; the next answer for that call replaces it.
      }
    }
  }

  /** The request with tokens its client could not carry put back (the same object when none were). */
  restore(request: NeutralRequest): NeutralRequest {
    if (this.#map.size === 0) return request;
    return restoreTokens(request, (key) => this.#map.get(key)?.tokens);
  }

  /** Keeps the tokens of an answer's tool calls. */
  capture(parts: readonly Part[]): void {
    const found = tokensOfAnswer(parts);
    if (found.size === 0) return;
    const createdAt = this.#now();
    for (const [key, tokens] of found) {
      const text = JSON.stringify(tokens);
      this.#keep(key, tokens, text.length);
      this.#writer.collect(this.#write, { key, tokens: text, createdAt });
    }
  }

  #keep(key: string, tokens: CallTokens, chars: number): void {
    const old = this.#map.get(key);
    if (old !== undefined) {
      this.#map.delete(key);
      this.#chars -= old.chars;
    }
    this.#map.set(key, { tokens, chars: key.length + chars });
    this.#chars += key.length + chars;
    // Oldest first: a Map iterates in insertion order, and a kept key was re-inserted above.
    for (const [oldest, entry] of this.#map) {
      if (this.#chars <= this.#maxChars) break;
      this.#map.delete(oldest);
      this.#chars -= entry.chars;
    }
  }
}

/** One block of a stream being collected. */
interface Block {
  readonly kind: "text" | "reasoning" | "toolCall";
  text: string;
  signature: string;
  readonly id?: string;
  readonly name?: string;
  readonly redactedData?: string;
  readonly family?: ProviderFamily;
}

/**
 * A pass-through stream step that collects the blocks of an upstream answer and hands their parts to
 * `done` when the stream ends (only when it carried a signature or redacted reasoning). Text is kept
 * too: Gemini signs text parts, and a signed text block becomes a text part with the signature in its
 * generate-content extra, as the JSON decoder gives it.
 */
export function collectTurnTokens(done: (parts: Part[]) => void): StageSteps<StreamEvent, StreamEvent> {
  const blocks = new Map<number, Block>();
  let opaque = false;
  return {
    transform(event, out) {
      switch (event.type) {
        case "blockStart":
          blocks.set(event.index, {
            kind: event.kind,
            text: "",
            signature: "",
            id: event.id,
            name: event.name,
            redactedData: event.redactedData,
            family: event.family,
          });
          if (event.redactedData) opaque = true;
          break;
        case "textDelta": {
          const block = blocks.get(event.index);
          if (block) block.text += event.text;
          break;
        }
        case "argumentsDelta": {
          const block = blocks.get(event.index);
          if (block) block.text += event.json;
          break;
        }
        case "signatureDelta": {
          const block = blocks.get(event.index);
          if (block) {
            block.signature += event.signature;
            opaque = true;
          }
          break;
        }
        default:
          break;
      }
      out.enqueue(event);
    },
    flush() {
      if (!opaque) return;
      const parts: Part[] = [];
      for (const block of blocks.values()) {
        if (block.kind === "text") {
          const extra = block.signature === "" ? {} : {
            extra: { format: "generate_content" as const, fields: { thoughtSignature: block.signature } },
          };
          parts.push({ kind: "text", text: block.text, ...extra });
          continue;
        }
        const signature = block.signature === "" ? {} : { signature: block.signature };
        const family = block.family === undefined ? {} : { family: block.family };
        if (block.kind === "toolCall") {
          parts.push({
            kind: "toolCall",
            id: block.id ?? "",
            name: block.name ?? "",
            arguments: block.text,
            ...signature,
            ...family,
          });
        } else {
          const redacted = block.redactedData === undefined ? {} : { redactedData: block.redactedData };
          parts.push({ kind: "reasoning", text: block.text, ...signature, ...redacted, ...family });
        }
      }
      done(parts);
    },
  };
}
