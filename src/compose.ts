/**
 * The composition root's wiring, the only module that knows every layer: it builds the gateway runtime,
 * the management services, the dashboard's context and the HTTP handler, and closes each part once.
 */
import type { Config } from "./config/mod.ts";
import { serializeCredential } from "./credentials/mod.ts";
import { maskKey } from "./inventory/key_text.ts";
import { checkTarget } from "./inventory/guarded_fetch.ts";
import type { DashboardContext } from "./dashboard/context.ts";
import { subscriptionConsole } from "./features/providers/subscription_probe.ts";
import { LiveHub, type RequestEvent } from "./dashboard/live_hub.ts";
import type { UpstreamTimeouts } from "./gateway/dispatch.ts";
import { identityLabel, identityRole, keyIdentity, keyRole } from "./gateway/identity.ts";
import { SsoService } from "./sso/mod.ts";
import { RequestLogObserver } from "./gateway/request_log_observer.ts";
import { AuthFailureLog } from "./gateway/auth_failure_log.ts";
import { requestUids } from "./gateway/request_uid.ts";
import { BudgetAlerts } from "./gateway/budget_alerts.ts";
import { WebhookSender } from "./gateway/budget_webhook.ts";
import { GatewayRuntime } from "./gateway/runtime.ts";
import type { GatewayMetrics } from "./gateway/metrics_observer.ts";
import { composeMetrics, instanceName } from "./compose_metrics.ts";
import { composeTelemetry } from "./compose_telemetry.ts";
import { createHandler } from "./http/app.ts";
import { BIG_BODIES_IN_FLIGHT_BYTES, BodyLane } from "./http/body_lane.ts";
import { JsonParser } from "./http/json_parser.ts";
import { MAX_BODY_BYTES } from "./http/read_body.ts";
import { type CheckRequest, Management } from "./features/mod.ts";
import { providerSigninFacts, SigninService } from "./features/signin/mod.ts";
import type { Store } from "./storage/mod.ts";

/** What the root passes in: the loaded config, an open store, and the outside world. */
export interface ComposeOptions {
  readonly config: Config;
  readonly store: Store;
  readonly now: () => number;
  readonly env: (name: string) => string | undefined;
  readonly timeouts?: UpstreamTimeouts;
  /** Outbound fetch for the Headroom saver. */
  readonly fetch?: typeof fetch;
  /** This process's name among the processes sharing the database (`worker-2`); `main` by default. */
  readonly processLabel?: string;
  /** Outbound fetch for budget webhooks (default: the global fetch). */
  readonly webhookFetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** The wait between webhook attempts (tests shorten it; default: a timer). */
  readonly webhookSleep?: (ms: number) => Promise<void>;
}

/** A gateway wired and ready to serve. */
export interface ComposedGateway {
  readonly runtime: GatewayRuntime;
  readonly management: Management;
  readonly dashboard: DashboardContext;
  readonly metrics: GatewayMetrics;
  /** The request handler for Deno.serve. */
  readonly handler: (request: Request) => Response | Promise<Response>;
  /** Ends live dashboard streams (they never end by themselves), so an HTTP shutdown can drain. */
  endLiveStreams(): void;
  /** Ends every in-flight upstream call and stream as if its client had left (the drain deadline passed). */
  abortInFlight(): void;
  /** Once the server has stopped: stops background work, flushes writes, closes provider clients. */
  close(): Promise<void>;
}

/** How long a shutdown waits for queued spans to be exported. */
const TELEMETRY_DRAIN_MS = 5_000;

/** Wires one gateway over an open store. */
export function composeGateway(options: ComposeOptions): ComposedGateway {
  const { config, store, now, env } = options;
  const telemetry = composeTelemetry({
    config,
    env,
    now,
    instance: instanceName(config, env),
    processLabel: options.processLabel,
    // Read when a request is captured or logged: the runtime (and its redactor) exists by then.
    redact: (text) => runtime.control.redactor.redact(text),
  });
  // Big request bodies and big stored conversations are parsed on its thread.
  const jsonParser = new JsonParser();
  const runtime = new GatewayRuntime(config, store, {
    now,
    timeouts: options.timeouts,
    fetch: options.fetch,
    env,
    processLabel: options.processLabel,
    spans: telemetry.telemetry.sink,
    parseStored: (parts) => jsonParser.parseStored(parts),
  });
  const management = new Management({ store, config, now, env, reload: () => runtime.control.reload() });
  const checkRequests = runtime.cluster.channel<CheckRequest>(
    "inventory-checks",
    (requests) => management.inventory.heard(requests),
  );
  // OAuth keys are refreshed by the credential core during checks; a rotated blob is written back to the key.
  management.inventory.checks.setCredentialRefresh(async ({ keyId, apiType, value, oauth }) =>
    serializeCredential(
      await runtime.subscriptions.credentials.access({
        slot: store.inventory.credentialSlot(keyId, maskKey),
        apiType,
        oauth,
        value,
      }),
    )
  );
  management.inventory.elect(options.processLabel, (request) => checkRequests.publishNow(request));
  const hub = new LiveHub(now, identityLabel);
  const signin = new SigninService({
    fetch: (input, init) => fetch(input, init),
    now,
    random: (bytes) => crypto.getRandomValues(new Uint8Array(bytes)),
    provider: (id) => management.providers.get(id),
    facts: providerSigninFacts,
    sessions: store.signins,
    // Through the provider service: sealed, and routing reloads so the provider is callable at once.
    save: (id, credential) => {
      // A sign-in completes after its route answered (the provider's callback or the device poll): its own row.
      const pending = management.audit.begin();
      management.providers.update(id, { apiKey: JSON.stringify(credential) });
      management.audit.end(pending, { actor: "gateway", actorKind: "system", address: "" }, {
        action: "providers.signin",
        target: `providers:${id}`,
      });
      // A new credential answers the auth failure that cooled the account (a dead token): use it now, not
      // in five minutes. Rate-limit and quota cooldowns stay: signing in again does not refill a window.
      const cooling = runtime.routing.active(now()).find((c) => c.accountId === id);
      if (cooling?.kind === "auth") runtime.routing.succeed(id);
    },
  });
  const requestUid = requestUids(now, crypto.randomUUID().slice(0, 8));
  // The audit log is swept to its retention with the request logs, and once at start (logging may be off).
  const sweepAudit = () => management.audit.prune(runtime.control.settings.server_audit_retention_days);
  sweepAudit();
  runtime.observers.push(
    hub,
    new RequestLogObserver(runtime.control, store, runtime.writer, requestUid, sweepAudit),
  );
  if (telemetry.logLines !== null) runtime.observers.push(telemetry.logLines);
  const webhooks = new WebhookSender({
    // An administrator's URL, but still no way into the gateway's own network unless the operator allows
    // private targets (the inventory's rule); the sender never follows redirects.
    fetch: options.webhookFetch ?? (async (url, init) => {
      await checkTarget(new URL(url), { allowPrivate: config.inventory.allowPrivateTargets });
      return fetch(url, init);
    }),
    now,
    sleep: options.webhookSleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
  });
  const budgetAlerts = new BudgetAlerts({
    repo: store.budgets,
    sender: webhooks,
    scopeName: (budget) =>
      budget.scope.kind === "key"
        ? runtime.control.key(budget.scope.keyId)?.name ?? ""
        : budget.scope.kind === "group"
        ? runtime.control.group(budget.scope.groupId)?.name ?? ""
        : "",
    newId: () => crypto.randomUUID(),
    defer: (work) => setTimeout(work, 0),
  });
  runtime.budgets.onLevel((budget, status, at) => budgetAlerts.observe(budget, status, at));
  runtime.recorder.onRecord((row) => hub.recorded(row));
  // Every worker's dashboard shows every worker's requests.
  const live = runtime.cluster.channel<RequestEvent>("live", (events) => hub.relay(events), true);
  hub.connect({ publish: live.publish, listen: (on) => runtime.cluster.listen("live", on) });
  const { metrics, endpoint, close: stopMetrics } = composeMetrics(
    runtime,
    config,
    env,
    now,
    options.processLabel,
  );
  telemetry.registerMetrics(metrics.registry);
  const dashboard: DashboardContext = {
    now,
    state: runtime.control,
    manage: management,
    reads: store,
    cooldowns: runtime.routing,
    quota: {
      headroom: (accountId, at) => runtime.routing.quota.headroom(accountId, at),
      tryOrder: (model, at) => {
        const plan = runtime.routing.preview(runtime.table, model, runtime.control.settings, at);
        return plan.kind === "attempts" ? plan.attempts.map((a) => a.account.id) : [];
      },
      cacheSessions: (at) => runtime.routing.affinity.countsByAccount(at),
    },
    spentToday: (keyId) => runtime.budgets.spentToday(keyId, now()),
    budgetStatus: (budget) => runtime.budgets.status(budget, now()),
    budgetZone: () => runtime.budgets.zone(),
    models: () => runtime.catalog,
    flushWrites: () => runtime.writer.flush(),
    hub,
    startedAt: now(),
    fingerprint: (text) => store.box.fingerprint(text),
    identity: { keyRole, role: identityRole, label: identityLabel, ofKey: keyIdentity },
    pushToken: () => env("INVENTORY_PUSH_TOKEN") || undefined,
    subscriptions: subscriptionConsole(runtime.subscriptions, now),
    signin,
    sso: config.sso === null ? null : new SsoService({
      config: config.sso,
      fetch: (input, init) => fetch(input, init),
      now,
      random: (bytes) => crypto.getRandomValues(new Uint8Array(bytes)),
      logins: store.ssoLogins,
    }),
  };
  const drain = new AbortController();
  const authFailures = new AuthFailureLog(store, runtime.writer, now, requestUid);
  const handler = createHandler({
    bigBodies: {
      inFlight: new BodyLane(BIG_BODIES_IN_FLIGHT_BYTES),
      lane: new BodyLane(MAX_BODY_BYTES),
      parser: jsonParser,
    },
    control: runtime.control,
    dispatcher: runtime.dispatcher,
    responses: runtime.responses,
    now,
    drainSignal: drain.signal,
    authRefused: (reason, surface) => authFailures.refused(reason, surface),
    requestUid,
    visibleModels: (identity) => runtime.visibleModels(identity),
    dashboard,
    metrics: endpoint,
    clock: () => performance.now(),
    worker: options.processLabel?.startsWith("worker-") ? options.processLabel.slice(7) : undefined,
  });
  let closed: Promise<void> | undefined;
  return {
    runtime,
    management,
    dashboard,
    metrics,
    handler,
    endLiveStreams: () => hub.close(),
    abortInFlight: () => drain.abort(new DOMException("the gateway is shutting down", "AbortError")),
    close() {
      // The sign-ins this process polls end first: their last writes need the store still open.
      const pollers = signin.close();
      stopMetrics();
      jsonParser.close();
      closed ??= pollers.then(() => management.close()).then(() => runtime.close()).then(() =>
        webhooks.close()
      ).then(() => telemetry.telemetry.shutdown(TELEMETRY_DRAIN_MS));
      return closed;
    },
  };
}
