/**
 * Hands the C allocator's free pages back to the system every TRIM_INTERVAL_MS while `gateway serve` runs
 * (glibc's `malloc_trim`, through FFI), on glibc Linux only.
 *
 * Why: glibc returns freed memory to the system only from the top of its heap, so after a burst of load the
 * main thread's malloc heap stays at its peak while most of it is free: 30 s after 10 s of 50-connection
 * load it held 44 MB, of which `malloc_trim(0)` gave back 15 MB in 2 ms (measured on a quiet 2-core machine,
 * 2026-11-28). One call per interval costs about 2 ms, idle or not, and more after big bodies: 17.7 ms
 * once eight 30 MiB bodies had passed. So the call runs on a thread of its own (FFI `nonblocking`), never
 * on the event loop, one at a time. Without FFI permission, on musl or on another system the trimmer is
 * simply not started.
 */

/** How often free allocator pages are given back. */
export const TRIM_INTERVAL_MS = 5_000;

/** A running trimmer. */
export interface MallocTrimmer {
  stop(): void;
}

/** Starts the periodic trim, or returns null where `malloc_trim` cannot be had (see the module doc). */
export function startMallocTrim(intervalMs = TRIM_INTERVAL_MS): MallocTrimmer | null {
  if (Deno.build.os !== "linux" || Deno.build.env === "musl") return null;
  const symbols = { malloc_trim: { parameters: ["usize"], result: "i32", nonblocking: true } } as const;
  let libc: Deno.DynamicLibrary<typeof symbols>;
  try {
    libc = Deno.dlopen("libc.so.6", symbols);
  } catch {
    // No FFI permission, or no glibc: the allocator keeps what it keeps.
    return null;
  }
  /** The trim in progress; the next tick skips while it runs, and the library closes after it. */
  let running: Promise<number> | null = null;
  let stopped = false;
  const timer = setInterval(() => {
    if (running !== null) return;
    // A trim in flight keeps the process up for its few milliseconds; `stop` closes the library after it.
    const done = () => {
      running = null;
      if (stopped) libc.close();
    };
    running = libc.symbols.malloc_trim(0n);
    running.then(done, done);
  }, intervalMs);
  // The trim never keeps a process alive on its own.
  Deno.unrefTimer(timer);
  return {
    stop() {
      clearInterval(timer);
      stopped = true;
      if (running === null) libc.close();
    },
  };
}
