import type { ReactiveController, ReactiveControllerHost } from "lit";
import type { SegmentOption } from "../components/gw_segmented.ts";

/** A screen's view choices (period, sort, page, filters) by name. */
export type QueryValues = Record<string, string | number>;

/** How each choice is read from the address bar: a hand-edited URL may hold anything. */
export type QuerySpec<Q extends QueryValues> = { readonly [K in keyof Q]: (raw: string | null) => Q[K] };

/** A screen element: the shell hands it the query it was opened with. */
export interface QueryHost extends ReactiveControllerHost {
  readonly params: URLSearchParams;
}

/** One of `options` (the raw value when it is one of them), else `fallback`. */
export function choice(options: readonly SegmentOption[], fallback: string): (raw: string | null) => string {
  return (raw) => options.find((o) => o.value === raw)?.value ?? fallback;
}

/** Free text, "" when absent. */
export function text(raw: string | null): string {
  return raw ?? "";
}

/** A page number, 1 when absent or not a positive integer. */
export function page(raw: string | null): number {
  return Math.max(1, Math.floor(Number(raw ?? 1)) || 1);
}

/** What a StateController needs of a screen's query: the read's parameters, and word of a change. */
export interface QuerySource {
  params(): QueryValues;
  onChange(listener: () => void): void;
}

/**
 * A screen's view choices, kept in the address bar so a reload or a shared link keeps them. Reads them
 * from the URL when the screen attaches, writes them back (without empty ones) on every change, and tells
 * the screen's StateController to read again. Add it before the StateController that uses it: controllers
 * attach in order, and the first read must already carry the URL's choices.
 */
export class QueryController<Q extends QueryValues> implements ReactiveController, QuerySource {
  #value: Q;
  readonly #host: QueryHost;
  readonly #spec: QuerySpec<Q>;
  readonly #fixed: QueryValues;
  readonly #listeners: (() => void)[] = [];

  /** `fixed` parameters go with every read but not into the URL (a page size). */
  constructor(host: QueryHost, spec: QuerySpec<Q>, fixed: QueryValues = {}) {
    this.#host = host;
    this.#spec = spec;
    this.#fixed = fixed;
    this.#value = this.#read(new URLSearchParams());
    host.addController(this);
  }

  /** The choices in force. */
  get value(): Q {
    return this.#value;
  }

  /** Reads the choices the screen was opened with. */
  hostConnected(): void {
    this.#value = this.#read(this.#host.params);
  }

  /** What a state read sends: the choices plus the fixed parameters. */
  params(): QueryValues {
    return { ...this.#value, ...this.#fixed };
  }

  /** Calls `listener` after every change (the StateController reads again). */
  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Changes some choices, puts them in the address bar and re-renders the screen. */
  set(change: Partial<Q>): void {
    this.#value = { ...this.#value, ...change };
    const shown = Object.entries(this.#value).filter(([, v]) => v !== "").map(([k, v]) => [k, String(v)]);
    history.replaceState(null, "", `${location.pathname}?${new URLSearchParams(shown)}`);
    this.#host.requestUpdate();
    for (const listener of this.#listeners) listener();
  }

  #read(params: URLSearchParams): Q {
    const entries = Object.entries(this.#spec).map((
      [k, read],
    ) => [
      k,
      (read as (raw: string | null) => unknown)(
        params.get(k),
      ),
    ]);
    return Object.fromEntries(entries) as Q;
  }
}
