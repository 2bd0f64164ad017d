/**
 * Cloud Code project discovery on first use: `loadCodeAssist` names the account's project, or the account
 * is onboarded (`onboardUser`, a long-running operation asked again until done). The project is stored
 * beside the tokens, so it is found once per credential, not once per request or per process.
 */
import type { ProviderConfig } from "../../config/mod.ts";
import type { CredentialBlob } from "../../credentials/mod.ts";
import { cloudCodeHeaders, cloudCodeProject, cloudCodeUrl } from "../cloud_code.ts";
import type { CredentialManager } from "./credential_manager.ts";
import { UNSAVED_PROVIDER_ID } from "./unsaved_credential.ts";
import { RefreshError } from "./refresh_strategies.ts";
import { TOKEN_TIMEOUT_MS } from "./token_endpoint.ts";

/** How often an unfinished onboarding is asked again, and how many times. */
export const ONBOARD_POLL_MS = 2_000;
export const ONBOARD_MAX_POLLS = 10;

const METADATA = { ideType: "IDE_UNSPECIFIED", platform: "PLATFORM_UNSPECIFIED", pluginType: "GEMINI" };

/** What discovery needs from outside. */
export interface ProjectDeps {
  readonly credentials: CredentialManager;
  readonly fetcher: typeof fetch;
  readonly sleep?: (ms: number) => Promise<void>;
}

function projectOf(value: unknown): string | undefined {
  if (typeof value === "string" && value !== "") return value;
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === "string" && id !== "" ? id : undefined;
}

/** Finds, and stores, the project of Cloud Code credentials that have none; one discovery per provider. */
export class CloudCodeProjects {
  readonly #deps: ProjectDeps;
  readonly #inflight = new Map<string, Promise<CredentialBlob>>();

  constructor(deps: ProjectDeps) {
    this.#deps = deps;
  }

  /** The credential with its project: at once when it has one, after discovery otherwise. */
  ensure(provider: ProviderConfig, blob: CredentialBlob): CredentialBlob | Promise<CredentialBlob> {
    if (cloudCodeProject(blob.extra) !== undefined) return blob;
    // An unsaved credential (the provider form) has nowhere to keep its project and shares no discovery.
    if (provider.id === UNSAVED_PROVIDER_ID) return this.#discover(provider, blob);
    const running = this.#inflight.get(provider.id);
    if (running) return running;
    const work = this.#discover(provider, blob).finally(() => this.#inflight.delete(provider.id));
    this.#inflight.set(provider.id, work);
    return work;
  }

  async #discover(provider: ProviderConfig, blob: CredentialBlob): Promise<CredentialBlob> {
    const base = provider.baseUrl.replace(/\/+$/, "");
    const client = provider.apiType === "cli_oauth_alt" ? "antigravity" : "gemini-cli";
    const post = async (method: string, body: unknown): Promise<Record<string, unknown>> => {
      let response: Response;
      try {
        response = await this.#deps.fetcher(cloudCodeUrl(base, method), {
          method: "POST",
          headers: { "content-type": "application/json", ...cloudCodeHeaders(client, blob.accessToken) },
          body: JSON.stringify(body),
          redirect: "error",
          signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
        });
      } catch (error) {
        throw new RefreshError(`Cloud Code ${method} failed: ${(error as Error).message}`, false);
      }
      const text = await response.text();
      if (!response.ok) {
        throw new RefreshError(
          `Cloud Code ${method} answered HTTP ${response.status}: ${text.slice(0, 200)}`,
          false,
        );
      }
      try {
        return JSON.parse(text) as Record<string, unknown>;
      } catch {
        throw new RefreshError(`Cloud Code ${method} answered something that is not JSON`, false);
      }
    };
    const loaded = await post("loadCodeAssist", { metadata: METADATA });
    let project = projectOf(loaded.cloudaicompanionProject);
    if (project === undefined) project = await this.#onboard(post, loaded);
    if (provider.id === UNSAVED_PROVIDER_ID) {
      return { ...blob, extra: { ...blob.extra, project_id: project } };
    }
    return this.#deps.credentials.saveExtra(provider, blob, { project_id: project });
  }

  async #onboard(
    post: (method: string, body: unknown) => Promise<Record<string, unknown>>,
    loaded: Record<string, unknown>,
  ): Promise<string> {
    const tiers = Array.isArray(loaded.allowedTiers) ? loaded.allowedTiers as Record<string, unknown>[] : [];
    const tier = tiers.find((t) => t.isDefault === true)?.id;
    const body = { tierId: typeof tier === "string" ? tier : "legacy-tier", metadata: METADATA };
    const sleep = this.#deps.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
    for (let poll = 0; poll < ONBOARD_MAX_POLLS; poll++) {
      if (poll > 0) await sleep(ONBOARD_POLL_MS);
      const operation = await post("onboardUser", body);
      if (operation.done === true) {
        const response = operation.response as Record<string, unknown> | undefined;
        const project = projectOf(response?.cloudaicompanionProject);
        if (project) return project;
        throw new RefreshError("Cloud Code onboarding finished without a project", false);
      }
    }
    throw new RefreshError(`Cloud Code onboarding did not finish after ${ONBOARD_MAX_POLLS} polls`, false);
  }
}
