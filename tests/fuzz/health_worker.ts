/**
 * The health probe, in a worker so the fuzzer's own work cannot delay it: GET the health URL every
 * 200 ms and report the longest wait (a probe still waiting when the next one is due counts as it goes).
 * "lap" reports the longest wait since the last lap (one campaign's), "stop" the whole run's.
 */
let url = "";
let max = 0;
let lapMax = 0;
let probes = 0;
let timer: ReturnType<typeof setInterval> | undefined;
/** The worker's side of the channel (the window lib types `self` as a window). */
const port = globalThis as unknown as { postMessage(message: unknown): void };

async function probe(): Promise<void> {
  const started = performance.now();
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel();
  } catch {
    // A probe that fails is measured all the same: its wait is how long it took to fail.
  }
  probes++;
  const wait = performance.now() - started;
  max = Math.max(max, wait);
  lapMax = Math.max(lapMax, wait);
}

self.onmessage = (event: MessageEvent<{ url: string } | "stop" | "lap">) => {
  if (event.data === "lap") {
    port.postMessage({ lap: lapMax });
    lapMax = 0;
    return;
  }
  if (event.data === "stop") {
    clearInterval(timer);
    port.postMessage({ max, probes });
    return;
  }
  url = event.data.url;
  timer = setInterval(() => void probe(), 200);
};
