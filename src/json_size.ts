/**
 * About how many characters a JSON value's text takes: its strings' lengths and a few characters for every
 * other value, key and bracket (escapes not counted). What decides whether a value is big enough to be
 * written, sent or received across turns of the event loop, and how to cut it.
 */

/** About how many characters `node`'s JSON takes; containers' sizes are remembered in `sizes`. */
export function jsonTextSize(node: unknown, sizes: Map<object, number>): number {
  if (typeof node === "string") return node.length + 2;
  if (typeof node !== "object" || node === null) return 5;
  let size = sizes.get(node);
  if (size !== undefined) return size;
  size = 2;
  if (Array.isArray(node)) {
    for (const item of node) size += jsonTextSize(item, sizes) + 1;
  } else {
    for (const key in node) {
      size += key.length + 4 + jsonTextSize((node as Record<string, unknown>)[key], sizes);
    }
  }
  sizes.set(node, size);
  return size;
}

/** Whether `value`'s JSON takes about `chars` characters or more (a walk that stops once it knows). */
export function isBigJson(value: unknown, chars: number): boolean {
  let size = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "string") size += next.length + 2;
    else if (Array.isArray(next)) {
      size += 2 + next.length;
      for (const item of next) pending.push(item);
    } else if (typeof next === "object" && next !== null) {
      size += 2;
      for (const key in next) {
        size += key.length + 4;
        pending.push((next as Record<string, unknown>)[key]);
      }
    } else size += 5;
    if (size >= chars) return true;
  }
  return false;
}
