/**
 * "No request holds up another", measured from outside the gateway process: a worker GETs `/v1/health`
 * every 10 ms while the test loads the gateway, and each probe's wait is split in two. On a busy machine a
 * probe also waits while the gateway's main thread (the event loop) or the probe's own thread is runnable
 * but has no CPU; the kernel counts that time per thread (`/proc/<pid>/task/<tid>/schedstat`, second
 * field), and it is the machine's, not the gateway's. What is left is the time the gateway's loop was busy
 * with something else: a synchronous parse, a tokenizer load, a collection. So the bound holds on a quiet
 * machine and on one whose cores other processes keep busy, and a loop held by real work still fails it.
 */

/** One probe: its wait, and the part of it the two threads spent waiting for a CPU (ms). */
export interface ProbeWait {
  readonly waited: number;
  readonly machine: number;
  readonly ok: boolean;
}

/** A command to the probe worker. */
export type ProbeCommand = { readonly type: "start"; readonly url: string; readonly pid: number } | {
  readonly type: "stop";
};

/** The worker's answer to "stop". */
export interface ProbeReport {
  readonly waits: readonly ProbeWait[];
}

/** What the probes saw. */
export interface LoopHoldReport {
  readonly probes: number;
  readonly failed: number;
  /** Longest wait with the machine's share taken out (ms): how long the gateway's loop was held. */
  readonly maxHeldMs: number;
  /** Longest plain wait (ms), for the message. */
  readonly maxWaitMs: number;
}

/** Probes `url` (the gateway's health route) every 10 ms until the returned `stop()`. */
export function probeLoopHold(url: string, gatewayPid: number): { stop(): Promise<LoopHoldReport> } {
  const worker = new Worker(new URL("./loop_hold_worker.ts", import.meta.url), { type: "module" });
  worker.postMessage({ type: "start", url, pid: gatewayPid } satisfies ProbeCommand);
  return {
    stop() {
      return new Promise((resolve, reject) => {
        worker.onmessage = (event: MessageEvent<ProbeReport>) => {
          worker.terminate();
          const waits = event.data.waits;
          resolve({
            probes: waits.length,
            failed: waits.filter((w) => !w.ok).length,
            maxHeldMs: Math.max(0, ...waits.map((w) => w.waited - w.machine)),
            maxWaitMs: Math.max(0, ...waits.map((w) => w.waited)),
          });
        };
        worker.onerror = (event) => {
          worker.terminate();
          reject(new Error(`the health probe failed: ${event.message}`));
        };
        worker.postMessage({ type: "stop" } satisfies ProbeCommand);
      });
    },
  };
}
