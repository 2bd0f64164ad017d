/**
 * `T` with its readonly modifiers removed, for building a decoded object key by key: optional fields
 * are only set when present, rather than written as undefined and deleted again (a `delete` turns a V8
 * object into a slow dictionary).
 */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
