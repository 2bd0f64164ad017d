/**
 * The loop-hold probe, in a worker so the test's own work (building and sending big bodies, the mock
 * upstream parsing them) cannot delay it: GET the health URL every 10 ms and report, per probe, how long
 * it waited and how much of that wait was the machine's rather than the gateway's (see loop_hold_probe.ts).
 */
import type { ProbeCommand, ProbeReport, ProbeWait } from "./loop_hold_probe.ts";

const port = globalThis as unknown as {
  postMessage(message: ProbeReport): void;
  onmessage: ((event: MessageEvent<ProbeCommand>) => void) | null;
};

/**
 * Nanoseconds a thread spent runnable but waiting for a CPU (the second field of its schedstat), or 0
 * where the kernel does not keep it: the probe then measures plain waits.
 */
function runqueueWaitMs(path: string): number {
  try {
    return Number(Deno.readTextFileSync(path).split(" ")[1]) / 1e6;
  } catch {
    return 0;
  }
}

let running = false;
const waits: ProbeWait[] = [];

async function probeLoop(url: string, gatewayMainThread: string): Promise<void> {
  const self = "/proc/thread-self/schedstat";
  while (running) {
    const due = performance.now() + 10;
    const gatewayBefore = runqueueWaitMs(gatewayMainThread);
    const selfBefore = runqueueWaitMs(self);
    const started = performance.now();
    let ok = false;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
      await response.body?.cancel();
      ok = response.status === 200;
    } catch {
      // A failed probe is measured all the same: its wait is how long it took to fail.
    }
    const waited = performance.now() - started;
    const machine = runqueueWaitMs(gatewayMainThread) - gatewayBefore + runqueueWaitMs(self) - selfBefore;
    waits.push({ waited, machine, ok });
    const rest = due - performance.now();
    if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
  }
}

let loop: Promise<void> = Promise.resolve();

port.onmessage = async (event) => {
  const command = event.data;
  if (command.type === "start") {
    running = true;
    waits.length = 0;
    loop = probeLoop(command.url, `/proc/${command.pid}/task/${command.pid}/schedstat`);
    return;
  }
  running = false;
  await loop;
  port.postMessage({ waits: [...waits] });
};
