import type { GatewayRuntime } from "../gateway/runtime.ts";
import { LiveHub } from "./live_hub.ts";
import { RequestLogObserver } from "./request_log_observer.ts";

/** What the dashboard routes need: the runtime plus the dashboard's own long-lived parts. */
export interface DashboardContext {
  readonly runtime: GatewayRuntime;
  readonly hub: LiveHub;
  readonly startedAt: number;
  /** The inventory push token, read when used so it can be rotated without restart. */
  readonly pushToken: () => string | undefined;
  /** Re-reads the YAML file for Reset (the loaded Config is readonly). */
  readonly env: (name: string) => string | undefined;
}

/** Registers the dashboard's observers (live usage, request logs) on a runtime and returns its context. */
export function attachDashboard(runtime: GatewayRuntime): DashboardContext {
  const hub = new LiveHub(runtime.now);
  runtime.observers.push(hub, new RequestLogObserver(runtime));
  runtime.recorder.onRecord((row) => hub.recorded(row));
  return {
    runtime,
    hub,
    startedAt: runtime.now(),
    pushToken: () => Deno.env.get("INVENTORY_PUSH_TOKEN") || undefined,
    env: (name) => Deno.env.get(name),
  };
}
