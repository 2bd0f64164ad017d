import type { ApiType, ProviderConfig } from "../../config/mod.ts";
import { type CredentialBlob, oauthKind, resolveOAuthKind } from "../../credentials/mod.ts";
import { copilotBase, copilotHeaders, CopilotModels } from "./copilot_models.ts";
import { COPILOT_EDITOR_HEADERS, CopilotSessions } from "./copilot_session.ts";
import { copilotQuotaWindows } from "./copilot_quota.ts";
import { getJson } from "./token_endpoint.ts";
import { type CallShape, claudeCall, codexCall, type SubscriptionCall } from "./subscription_call.ts";
import { normalizeCopilotChatBody } from "./copilot_body.ts";
import { CredentialManager, type CredentialManagerDeps } from "./credential_manager.ts";
import { CloudCodeProjects } from "./cloud_code_project.ts";
import { CloudCodeQuota } from "./cloud_code_quota.ts";

/** The subscription kinds this build calls. */
const SUBSCRIPTION_KINDS = new Set<ApiType>(["responses_oauth", "messages_oauth", "device_oauth_assistant"]);

/** Whether an api_type authenticates with a stored OAuth credential handled here. */
export function isSubscriptionKind(apiType: ApiType): boolean {
  return SUBSCRIPTION_KINDS.has(apiType);
}

/**
 * Whether an api_type's key is a stored OAuth credential (the subscription kinds above, and the kinds whose
 * calls are shaped from the credential: Cloud Code and the cloud assistant). Fetch Models and Test
 * Connection of these go through the credential path, never with the raw key.
 */
export function hasStoredCredential(apiType: ApiType): boolean {
  return oauthKind(apiType) !== null;
}

/** The kinds whose credential carries a Cloud Code project. */
function isCloudCode(apiType: ApiType): boolean {
  return apiType === "cli_oauth" || apiType === "cli_oauth_alt";
}

/**
 * The subscription upstreams: for each call, the credential (refreshed when due), the URL and the
 * headers its kind requires. Requests, Fetch Models and Test Connection all come through here.
 */
export class Subscriptions {
  readonly credentials: CredentialManager;
  readonly copilot: CopilotSessions;
  readonly copilotModels: CopilotModels;
  /** Cloud Code projects found on first use. */
  readonly cloudProjects: CloudCodeProjects;
  /** Cloud Code per-model quota, fed to routing. */
  readonly cloudQuota: CloudCodeQuota;
  readonly #deps: CredentialManagerDeps;
  /** When each Copilot provider's quota was last read (epoch ms). */
  readonly #quotaReadAt = new Map<string, number>();

  constructor(deps: CredentialManagerDeps) {
    this.#deps = deps;
    this.credentials = new CredentialManager(deps);
    this.copilot = new CopilotSessions(this.credentials, deps.fetcher, deps.now, deps.onNewSecret);
    this.copilotModels = new CopilotModels(this.copilot, deps.fetcher, deps.now);
    this.cloudProjects = new CloudCodeProjects({
      credentials: this.credentials,
      fetcher: deps.fetcher,
      sleep: deps.sleep,
    });
    this.cloudQuota = new CloudCodeQuota(deps.fetcher, deps.now, deps.onQuota);
  }

  /**
   * The credential of a kind whose calls are shaped from it (Cloud Code, the cloud assistant): refreshed
   * when due (single-flight, written back), and for Cloud Code with its project found on first use and its
   * quota read now and then. Requests, Fetch Models and Test Connection all take it from here.
   */
  shapedCredential(provider: ProviderConfig): CredentialBlob | Promise<CredentialBlob> {
    const stored = this.credentials.forProvider(provider);
    const blob = stored instanceof Promise
      ? stored.then((b) => withConfiguredHints(provider, b))
      : withConfiguredHints(provider, stored);
    if (!isCloudCode(provider.apiType)) return blob;
    const withProject = (b: CredentialBlob) => {
      const ready = this.cloudProjects.ensure(provider, b);
      return then(ready, (done) => {
        this.cloudQuota.readSoon(provider, done);
        return done;
      });
    };
    return blob instanceof Promise ? blob.then(withProject) : withProject(blob);
  }

  /** The call for one request to one subscription account; a promise only when a token must be fetched. */
  call(provider: ProviderConfig, shape: CallShape): SubscriptionCall | Promise<SubscriptionCall> {
    switch (provider.apiType) {
      case "responses_oauth":
        return then(this.credentials.forProvider(provider), (blob) => codexCall(provider, blob, shape));
      case "messages_oauth":
        return then(this.credentials.forProvider(provider), (blob) => claudeCall(provider, blob));
      case "device_oauth_assistant":
        return this.#copilotCall(provider, shape);
      default:
        throw new Error(`api_type "${provider.apiType}" is not a subscription kind`);
    }
  }

  /** An upstream answered 401: the next call refreshes the credential (and Copilot's session) first. */
  rejected(provider: ProviderConfig): void {
    if (oauthKind(provider.apiType) === null) return;
    this.credentials.invalidate(`provider:${provider.id}`);
    this.copilot.forget(provider.id);
  }

  /** Reads Copilot's quota for routing, at most every ten minutes, off the request path. */
  #readQuotaSoon(provider: ProviderConfig): void {
    const onQuota = this.#deps.onQuota;
    const url = resolveOAuthKind(provider.apiType, provider.oauth)?.usageUrl;
    const now = this.#deps.now();
    if (!onQuota || !url || now - (this.#quotaReadAt.get(provider.id) ?? -Infinity) < QUOTA_READ_EVERY_MS) {
      return;
    }
    this.#quotaReadAt.set(provider.id, now);
    (async () => {
      const github = await this.credentials.forProvider(provider);
      const answer = await getJson(this.#deps.fetcher, url, {
        authorization: `token ${github.accessToken}`,
        ...COPILOT_EDITOR_HEADERS,
      });
      if (answer.status === 200) onQuota(provider.id, copilotQuotaWindows(answer.json));
    })().catch(() => {/* quota is advisory: routing works without it */});
  }

  /**
   * Whether a failed call was Copilot saying the model is not served on chat completions; the model is
   * then remembered as a /responses one, so the caller may call it again.
   */
  wrongEndpoint(provider: ProviderConfig, model: string, message: string): boolean {
    if (provider.apiType !== "device_oauth_assistant") return false;
    if (this.copilotModels.endpointFor(provider.id, model) !== "/chat/completions") return false;
    const lower = message.toLowerCase();
    if (
      !lower.includes("not accessible via the /chat/completions endpoint") &&
      !lower.includes("the requested model is not supported")
    ) return false;
    this.copilotModels.learnNotChat(provider.id, model);
    return true;
  }

  /** Session tokens alive in memory (stored tokens are known to the control plane already). */
  liveSecrets(): string[] {
    return this.copilot.secrets();
  }

  async #copilotCall(provider: ProviderConfig, shape: CallShape): Promise<SubscriptionCall> {
    const defaultBase = oauthKind("device_oauth_assistant")!.defaultBaseUrl;
    if (this.copilotModels.stale(provider.id)) {
      // Without the list every model is tried on chat completions; a 400 then teaches the endpoint.
      await this.copilotModels.list(provider, defaultBase).catch(() => undefined);
    }
    this.#readQuotaSoon(provider);
    const session = await this.copilot.get(provider);
    const base = copilotBase(provider, session, defaultBase);
    const endpoint = this.copilotModels.endpointFor(provider.id, shape.model);
    const headers: Record<string, string> = {
      ...copilotHeaders(session),
      "x-request-id": crypto.randomUUID(),
      "x-initiator": shape.agentTurn ? "agent" : "user",
      ...(shape.hasImages ? { "copilot-vision-request": "true" } : {}),
    };
    const common = { betas: [], alwaysStream: false, inlineImagesOnly: false };
    if (endpoint === "/v1/messages") {
      return {
        ...common,
        format: "messages",
        url: `${base}/v1/messages`,
        headers: {
          ...headers,
          "openai-intent": "messages-proxy",
          "x-interaction-type": "messages-proxy",
          "x-github-api-version": "2026-06-01",
        },
      };
    }
    return {
      ...common,
      format: endpoint === "/responses" ? "responses" : "chat_completions",
      url: `${base}${endpoint}`,
      headers: { ...headers, "openai-intent": "conversation-panel" },
      ...(endpoint === "/chat/completions" ? { rewriteBody: normalizeCopilotChatBody } : {}),
    };
  }
}

/**
 * The region (Kiro) and project (Cloud Code) the provider's configuration names, over the credential's own:
 * a configured project also means no discovery. Only the call sees them; the stored credential is kept.
 */
function withConfiguredHints(provider: ProviderConfig, blob: CredentialBlob): CredentialBlob {
  const region = provider.apiType === "cloud_assistant_oauth" ? provider.oauth?.region : undefined;
  const project = isCloudCode(provider.apiType) ? provider.oauth?.project : undefined;
  if (region === undefined && project === undefined) return blob;
  return {
    ...blob,
    extra: { ...blob.extra, ...(region ? { region } : {}), ...(project ? { project_id: project } : {}) },
  };
}

/** How often a Copilot provider's quota is read again while it is used. */
const QUOTA_READ_EVERY_MS = 10 * 60_000;

function then<T, U>(value: T | Promise<T>, next: (value: T) => U): U | Promise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
