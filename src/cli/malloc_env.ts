/**
 * The allocator setting `gateway serve` runs with on glibc Linux, however it is started: `deno task serve`
 * and `deno task gateway` (deno.json), each worker of `serve --workers N`, the systemd unit and the container
 * image (deploy/). It must be in the environment before the process starts (glibc reads it once, and the
 * runtime's threads have their arenas by the time any JavaScript runs: set from JavaScript it changed
 * nothing), so a compiled binary started some other way needs it in its own environment (docs/scaling.md).
 *
 * Why: glibc gives each thread that contends for `malloc` an arena of its own, up to eight per core, and keeps
 * what each arena once held. Measured on a quiet 2-core machine (2026-11-28), 50 connections of non-stream
 * load for 10 s: RSS 162–174 MB right after with two arenas against 193–198 MB without, and 130–139 MB
 * 30 s later against 157–161 MB. Other allocators (musl, macOS) ignore the variable.
 */
export const MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: "2" };

/** `MALLOC_ENV` unless the operator set the variable already (theirs wins). */
export function mallocEnv(current: (name: string) => string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(MALLOC_ENV)) if (current(name) === undefined) out[name] = value;
  return out;
}
