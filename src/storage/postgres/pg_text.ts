/**
 * PostgreSQL text cannot hold U+0000: the server refuses the statement, and a batched write with it, so one
 * NUL in a client's logged body or an upstream's error text would drop every row of its batch. SQLite keeps
 * it. On PostgreSQL it is stored as U+FFFD, the way a lone surrogate already arrives.
 */
export function pgText(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", "\uFFFD") : text;
}

/** Statement parameters with every string made storable (`pgText`). */
export function pgParams(params: readonly unknown[]): unknown[] {
  return params.map((value) => typeof value === "string" ? pgText(value) : value);
}
