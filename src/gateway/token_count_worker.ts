/**
 * The token-count worker: counts texts with the reference tokenizer on its own thread, so a large
 * count_tokens body never holds up other requests on the serving event loop.
 */
import { countTextTokens, estimateTokens, loadTokenizer, type Pacer } from "../accounting/mod.ts";

/** One job: texts to count, as one total or (`each`) one count per text. */
export interface CountJob {
  readonly id: number;
  readonly texts: readonly string[];
  /** Count each text on its own (the caller keeps them; each must be within EXACT_CHARS). */
  readonly each?: boolean;
  /** For a total: each text's whole length when `texts` are its heads (countTextTokens). */
  readonly lengths?: readonly number[];
}

/** One answer: the total, the count of each text, or why it failed. */
export type CountAnswer =
  | { readonly id: number; readonly tokens: number }
  | { readonly id: number; readonly counts: readonly number[] }
  | { readonly id: number; readonly error: string };

/** On its own thread the count need not pause for anyone. */
const UNPACED: Pacer = { due: () => false, pause: () => Promise.resolve() };

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<CountJob>) => void) | null;
  postMessage(message: CountAnswer): void;
};

scope.onmessage = async (event) => {
  const { id, texts, each, lengths } = event.data;
  try {
    await loadTokenizer();
    if (each) scope.postMessage({ id, counts: texts.map(estimateTokens) });
    else scope.postMessage({ id, tokens: await countTextTokens(texts, UNPACED, lengths) });
  } catch (error) {
    scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
