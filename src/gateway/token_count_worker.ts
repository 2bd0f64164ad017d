/**
 * The token-count worker: counts texts with the reference tokenizer on its own thread, so a large
 * count_tokens body never holds up other requests on the serving event loop.
 */
import { countTextTokens, loadTokenizer, type Pacer } from "../accounting/mod.ts";

/** One job: texts to count. */
export interface CountJob {
  readonly id: number;
  readonly texts: readonly string[];
}

/** One answer: the count, or why it failed. */
export type CountAnswer = { readonly id: number; readonly tokens: number } | {
  readonly id: number;
  readonly error: string;
};

/** On its own thread the count need not pause for anyone. */
const UNPACED: Pacer = { due: () => false, pause: () => Promise.resolve() };

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<CountJob>) => void) | null;
  postMessage(message: CountAnswer): void;
};

scope.onmessage = async (event) => {
  const { id, texts } = event.data;
  try {
    await loadTokenizer();
    const tokens = await countTextTokens(texts, UNPACED);
    scope.postMessage({ id, tokens });
  } catch (error) {
    scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
