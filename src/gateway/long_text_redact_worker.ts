/**
 * The long-text redaction worker: redacts strings of a million characters and more (a pasted log kept by
 * the Responses store) on its own thread. On the serving thread the redactor's patterns cost 20-35 ms a MB
 * of text in one step, so a 30 MiB input held it for about 480 ms. The text comes in pieces and goes back
 * in pieces (src/long_strings.ts): a whole 30 MB string crossing threads is one step of 20-40 ms itself.
 */
import { cutIntoPieces } from "../long_strings.ts";
import { Redactor, type RedactorSource } from "../security/redact.ts";

/** A piece of text `text` to hold; the text `redact` to redact with `source`; the next piece of `take`. */
export type RedactJob =
  | { readonly id: number; readonly text: number; readonly piece: string }
  | { readonly id: number; readonly redact: number; readonly source: RedactorSource }
  | { readonly id: number; readonly take: number };

/**
 * A piece held; a text redacted into `pieces` pieces (`unchanged`: it had nothing to redact, and nothing is
 * held for it any more); a piece taken (`missing`: none held).
 */
export type RedactAnswer =
  | { readonly id: number; readonly held: true }
  | { readonly id: number; readonly unchanged: true }
  | { readonly id: number; readonly pieces: number }
  | { readonly id: number; readonly piece: string }
  | { readonly id: number; readonly missing: true };

/** Per text: its pieces as received, then (once redacted) the redacted pieces not yet taken. */
const texts = new Map<number, string[]>();

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<RedactJob>) => void) | null;
  postMessage(message: RedactAnswer): void;
};

scope.onmessage = (event) => {
  const job = event.data;
  if ("piece" in job) {
    const pieces = texts.get(job.text) ?? [];
    pieces.push(job.piece);
    texts.set(job.text, pieces);
    scope.postMessage({ id: job.id, held: true });
  } else if ("redact" in job) {
    const original = (texts.get(job.redact) ?? []).join("");
    const text = new Redactor(job.source).redact(original);
    if (text === original) {
      texts.delete(job.redact);
      scope.postMessage({ id: job.id, unchanged: true });
      return;
    }
    const pieces = cutIntoPieces(text);
    texts.set(job.redact, pieces);
    scope.postMessage({ id: job.id, pieces: pieces.length });
  } else {
    const pieces = texts.get(job.take);
    const piece = pieces?.shift();
    if (pieces?.length === 0) texts.delete(job.take);
    scope.postMessage(piece === undefined ? { id: job.id, missing: true } : { id: job.id, piece });
  }
};
