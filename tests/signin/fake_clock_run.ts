/** Runs a device sign-in end to end on a fake clock, for the RFC 8628 and AWS device-flow tests alike. */
import {
  type DeviceFlowEndpoints,
  type DeviceGrant,
  type DeviceResult,
  requestDeviceCode,
  runDeviceFlow,
} from "../../src/features/signin/device_flow.ts";

/** What a run ended with, every wait it slept, the grant it polled for and the clock at the end. */
export interface FakeClockRun {
  readonly result: DeviceResult;
  readonly slept: number[];
  readonly grant: DeviceGrant;
  readonly clock: number;
}

/**
 * Asks for a device code and polls to the end; sleeping advances the clock and records how long each wait
 * was. `expiresInMs` shortens the code's life; `abortAfterPolls` cancels after that many polls.
 */
export async function runOnFakeClock(
  endpoints: DeviceFlowEndpoints,
  options: { abortAfterPolls?: number; expiresInMs?: number } = {},
): Promise<FakeClockRun> {
  let clock = 1_000_000;
  const slept: number[] = [];
  const abort = new AbortController();
  const grant = await requestDeviceCode(fetch, endpoints, clock);
  const shortened = options.expiresInMs === undefined
    ? grant
    : { ...grant, expiresAt: clock + options.expiresInMs };
  let polls = 0;
  const result = await runDeviceFlow(
    {
      fetch,
      now: () => clock,
      sleep: (ms) => {
        slept.push(ms);
        clock += ms;
        return Promise.resolve();
      },
      onPoll: () => {
        if (++polls === options.abortAfterPolls) abort.abort();
      },
    },
    endpoints,
    shortened,
    abort.signal,
  );
  return { result, slept, grant, clock };
}
