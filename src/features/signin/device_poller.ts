/**
 * The polling side of a stored device sign-in, run by the process that started it: polls the provider,
 * writes each change of interval or note to the sign-in's row, and between polls re-reads the row, so a
 * cancel (or a newer sign-in for the provider) made on any process stops it at the next check.
 */
import type { SigninSessionsRepo } from "../../storage/mod.ts";
import {
  type DeviceFlowEndpoints,
  type DeviceGrant,
  type DeviceResult,
  runDeviceFlow,
} from "./device_flow.ts";
import type { OAuthFetch } from "./oauth_http.ts";
import { abortableSleep } from "./base64url.ts";
import type { SignedInCredential } from "./token_answer.ts";

/** How often a waiting poller re-reads its sign-in's row (so a cancel elsewhere stops it within this). */
export const ROW_CHECK_MS = 1_000;

/** One device sign-in to poll. */
export interface DevicePollerDeps {
  readonly id: string;
  readonly fetch: OAuthFetch;
  readonly now: () => number;
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly sessions: SigninSessionsRepo;
  readonly endpoints: DeviceFlowEndpoints;
  readonly grant: DeviceGrant;
  /** Aborted when this process stops polling (a cancel here, shutdown). */
  readonly signal: AbortSignal;
  /** Aborts `signal`: the row says the sign-in ended elsewhere. */
  readonly stop: () => void;
  /** Claims the sign-in and saves its credential (nothing when it ended meanwhile). */
  readonly store: (credential: SignedInCredential) => void;
}

/** Polls until the sign-in ends one way or another, and records how; never throws. */
export async function pollDeviceSignin(deps: DevicePollerDeps): Promise<void> {
  const { id, sessions } = deps;
  const sleep = deps.sleep ?? abortableSleep;
  // A database that cannot be read for a moment (PostgreSQL away) is no reason to stop polling.
  const ended = () => {
    try {
      return sessions.get(id)?.status !== "pending";
    } catch {
      return false;
    }
  };
  let noted: { intervalS: number; message: string | null } = {
    intervalS: deps.grant.intervalS,
    message: null,
  };
  let result: DeviceResult;
  try {
    result = await runDeviceFlow(
      {
        fetch: deps.fetch,
        now: deps.now,
        // Waits in steps of ROW_CHECK_MS, re-reading the row after each one.
        sleep: async (ms, signal) => {
          for (let left = ms; !signal.aborted;) {
            const step = Math.min(left, ROW_CHECK_MS);
            await sleep(step, signal);
            left -= step;
            if (!signal.aborted && ended()) deps.stop();
            if (left <= 0) return;
          }
        },
        onPoll: (poll, intervalS) => {
          const message = poll.kind === "slow_down"
            ? `The provider asked to poll less often (every ${intervalS} s)`
            : poll.kind === "failed"
            ? `Last poll failed, retrying: ${poll.message}`
            : poll.kind === "pending"
            ? null
            : noted.message;
          if (intervalS === noted.intervalS && message === noted.message) return;
          noted = { intervalS, message };
          try {
            if (!sessions.progress(id, intervalS, message)) deps.stop();
          } catch { /* written with the next change */ }
        },
      },
      deps.endpoints,
      deps.grant,
      deps.signal,
    );
  } catch (error) {
    result = { kind: "failed", message: error instanceof Error ? error.message : String(error) };
  }
  try {
    if (result.kind === "done") deps.store(result.credential);
    else if (result.kind !== "cancelled") {
      const status = result.kind === "denied" ? "failed" : result.kind;
      sessions.finish(id, "pending", status, result.message, deps.now());
    }
  } catch { /* the row expires on its own; the database said why to whoever reads it next */ }
}
