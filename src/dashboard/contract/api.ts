/**
 * The typed dashboard API: every route the UI calls, keyed `"METHOD /path"` (relative to
 * `/dashboard/api`, `:name` for a path parameter), with the body it sends and the answer a success
 * carries. Each feature declares its own routes in its `contract.ts`; `DashboardApi` joins them. The server's
 * route handlers build their answers through `answer()` against the same table and the UI's `call()` is typed
 * by it, so a renamed field or a wrong body breaks the type check on both sides.
 */

/** One route: what the client sends (`undefined`: no body) and what a success answers. */
export interface Route<Body, Answer> {
  readonly body: Body;
  readonly answer: Answer;
}

/** The one error body every dashboard API failure carries (the spec's 401 aside: `{detail}`). */
export interface ApiErrorBody {
  readonly error: {
    readonly message: string;
    /** The error kind (`invalid_request`, `not_found`, `permission`, …). */
    readonly type: string;
    /** The input field at fault, for forms. */
    readonly field?: string;
  };
}

/** The answer of a change that returns nothing else. */
export interface Done {
  readonly ok: true;
}

/** A route table: route keys to their `Route`. */
export type RouteTable = { readonly [key: string]: Route<unknown, unknown> };

/** The path parameters a route path names, as an object (none: an empty object). */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { readonly [K in Name]: string | number } & PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}` ? { readonly [K in Name]: string | number }
  : Record<never, never>;

/** The path part of a route key. */
export type PathOf<K extends string> = K extends `${string} ${infer Path}` ? Path : never;
