/**
 * The JSON parse worker: decodes, parses and shape-checks big request bodies on its own thread. On the
 * serving loop a 30 MiB body cost two synchronous steps of 30-35 ms each (decode, parse); here it costs
 * the loop only the structured clone of the parsed value back.
 */
import { GatewayError } from "../model/mod.ts";
import { checkJsonShape } from "../wire/shared/limits.ts";

/** One job: a body's bytes (transferred, not copied). */
export interface ParseJob {
  readonly id: number;
  readonly bytes: Uint8Array;
}

/** One answer: the value, or why the body was refused (a 400 with this message), or an empty body. */
export type ParseAnswer =
  | { readonly id: number; readonly value: unknown }
  | { readonly id: number; readonly empty: true }
  | { readonly id: number; readonly notJson: string }
  | { readonly id: number; readonly refused: string };

/** Non-fatal decoding, like the serving thread's (bad bytes become U+FFFD). */
const UTF8 = new TextDecoder();

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ParseJob>) => void) | null;
  postMessage(message: ParseAnswer): void;
};

scope.onmessage = (event) => {
  const { id, bytes } = event.data;
  const text = UTF8.decode(bytes);
  if (text.trim() === "") return scope.postMessage({ id, empty: true });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return scope.postMessage({ id, notJson: (error as Error).message });
  }
  try {
    checkJsonShape(value);
  } catch (error) {
    if (error instanceof GatewayError) return scope.postMessage({ id, refused: error.message });
    throw error;
  }
  scope.postMessage({ id, value });
};
