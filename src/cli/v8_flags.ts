/**
 * The V8 heap settings `gateway serve` runs with, however it is started: `deno task serve` and
 * `deno task gateway` (deno.json), the compiled binary (`scripts/release.ts` bakes them in), and each
 * worker of `serve --workers N` run from source (a compiled binary's workers inherit them).
 *
 * Why: under load V8 grows its young generation to two 16 MB semi-spaces and lets the old generation
 * reach up to four times what survived the last full collection, so a gateway with ~20 MB of live heap
 * held 170–210 MB after 5 s at 50 connections. Semi-spaces of 8 MB and an old generation that may grow by
 * half before the next full collection keep it at 135–145 MB, side by side at the same req/s and CPU per
 * request within the machine's noise (docs/scaling.md, "What drives RSS after load"). Neither is a cap:
 * a large body or many concurrent answers still get the memory they need.
 */
export const V8_HEAP_FLAGS: readonly string[] = ["--max-semi-space-size=8", "--heap-growing-percent=50"];

/** The same as one `deno run` / `deno compile` argument. */
export const V8_FLAGS_ARG = `--v8-flags=${V8_HEAP_FLAGS.join(",")}`;
