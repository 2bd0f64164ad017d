/** The 503 detail when every account for a model is cooling down (spec "Errors"). */
export function allCoolingMessage(model: string, seconds: number): string {
  return `All accounts for '${model}' are cooling down; retry after ${seconds}s`;
}

/** The 503 detail when every attempt of a request failed (spec "Errors"). */
export function exhaustedMessage(providerId: string, lastError: string): string {
  return `All providers exhausted: ${providerId}: ${lastError}`;
}

/** Why a `<prefix>/<model>` string cannot be routed: the prefix is unknown. */
export function unknownPrefixMessage(model: string, prefix: string): string {
  return `Cannot route model "${model}": no provider has prefix "${prefix}"`;
}

/** Why a `<prefix>/<model>` string cannot be routed: every account with the prefix is disabled. */
export function disabledPrefixMessage(model: string, prefix: string): string {
  return `Cannot route model "${model}": every provider with prefix "${prefix}" is disabled`;
}

/** Why a model string without a prefix cannot be routed. */
export function bareModelMessage(model: string): string {
  return `Cannot route model "${model}": use "<prefix>/<model>" or a combo name`;
}

/** Why a combo cannot be routed: none of its members has an enabled account. */
export function deadComboMessage(combo: string, members: readonly string[]): string {
  const list = members.length === 0 ? "it has no models" : `none of ${members.join(", ")} can be routed`;
  return `Cannot route combo "${combo}": ${list}`;
}
