/**
 * Assertions for tests. JSR (where @std/assert lives) cannot be reached from these machines, so the
 * few assertions the suite needs are implemented here on top of node:assert.
 */
import nodeAssert from "node:assert/strict";

/** Deep structural equality (objects compare by own keys, whatever their prototype). */
export function assertEquals<T>(actual: T, expected: T, message?: string): void {
  if (message === undefined) nodeAssert.deepStrictEqual(plain(actual), plain(expected));
  else nodeAssert.deepStrictEqual(plain(actual), plain(expected), message);
}

/** Deep structural inequality. */
export function assertNotEquals<T>(actual: T, expected: T, message?: string): void {
  if (message === undefined) nodeAssert.notDeepStrictEqual(plain(actual), plain(expected));
  else nodeAssert.notDeepStrictEqual(plain(actual), plain(expected), message);
}

// node:sqlite returns null-prototype rows; compare them as plain objects.
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

/** Truthiness. */
export function assert(condition: unknown, message = "assertion failed"): asserts condition {
  nodeAssert.ok(condition, message);
}

/** Not null and not undefined. */
export function assertExists<T>(
  value: T,
  message = "value is null or undefined",
): asserts value is NonNullable<T> {
  nodeAssert.ok(value !== null && value !== undefined, message);
}

/** A string matches a pattern. */
export function assertMatch(actual: string, pattern: RegExp, message?: string): void {
  if (message === undefined) nodeAssert.match(actual, pattern);
  else nodeAssert.match(actual, pattern, message);
}

/** A string contains a substring. */
export function assertStringIncludes(actual: string, expected: string, message?: string): void {
  nodeAssert.ok(
    actual.includes(expected),
    message ?? `expected ${JSON.stringify(actual.slice(0, 500))} to include ${JSON.stringify(expected)}`,
  );
}

type ErrorClass<E extends Error> = abstract new (...args: never[]) => E;

/** A function throws (optionally an instance of `errorClass` whose message includes `includes`). */
export function assertThrows<E extends Error = Error>(
  fn: () => unknown,
  errorClass?: ErrorClass<E>,
  includes?: string,
): E {
  try {
    fn();
  } catch (error) {
    checkError(error, errorClass, includes);
    return error as E;
  }
  throw new Error("expected function to throw");
}

/** An async function rejects (optionally with an instance of `errorClass` whose message includes `includes`). */
export async function assertRejects<E extends Error = Error>(
  fn: () => Promise<unknown>,
  errorClass?: ErrorClass<E>,
  includes?: string,
): Promise<E> {
  try {
    await fn();
  } catch (error) {
    checkError(error, errorClass, includes);
    return error as E;
  }
  throw new Error("expected promise to reject");
}

function checkError<E extends Error>(error: unknown, errorClass?: ErrorClass<E>, includes?: string): void {
  if (errorClass && !(error instanceof errorClass)) {
    throw new Error(`expected ${errorClass.name}, got ${String(error)}`);
  }
  if (includes && !(error instanceof Error && error.message.includes(includes))) {
    throw new Error(`expected error message to include ${JSON.stringify(includes)}, got ${String(error)}`);
  }
}
