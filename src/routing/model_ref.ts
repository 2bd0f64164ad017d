/** A model string split into its routing prefix and the upstream model name. */
export interface ModelRef {
  readonly prefix: string;
  readonly model: string;
}

/**
 * Splits `<prefix>/<model>` at the FIRST slash; the model part may itself contain slashes
 * (`openrouter/meta-llama/llama-3`). Returns null when there is no slash or either side is empty.
 */
export function parseModelRef(model: string): ModelRef | null {
  const slash = model.indexOf("/");
  if (slash <= 0 || slash === model.length - 1) return null;
  return { prefix: model.slice(0, slash), model: model.slice(slash + 1) };
}
