import type { ProviderConfig } from "../../config/mod.ts";
import { COPILOT_EDITOR_HEADERS, type CopilotSession, type CopilotSessions } from "./copilot_session.ts";
import { getJson } from "./token_endpoint.ts";

/** How long a provider's model list is trusted before it is read again. */
const MODELS_TTL_MS = 10 * 60_000;

/** The Copilot endpoints one model is served on (`/chat/completions`, `/responses`, `/v1/messages`). */
export type CopilotEndpoint = "/chat/completions" | "/responses" | "/v1/messages";

/** One entry of Copilot's model list. */
export interface CopilotModel {
  readonly id: string;
  readonly endpoints: readonly CopilotEndpoint[];
}

const KNOWN: readonly CopilotEndpoint[] = ["/chat/completions", "/responses", "/v1/messages"];

/** The headers of a Copilot API call other than the per-request ones. */
export function copilotHeaders(session: CopilotSession): Record<string, string> {
  return {
    authorization: `Bearer ${session.token}`,
    "copilot-integration-id": "vscode-chat",
    ...COPILOT_EDITOR_HEADERS,
  };
}

/** The API base of a session: the exchange's `endpoints.api`, unless the provider set its own base_url. */
export function copilotBase(provider: ProviderConfig, session: CopilotSession, defaultBase: string): string {
  const custom = provider.baseUrl.replace(/\/+$/, "") !== defaultBase.replace(/\/+$/, "");
  return custom || session.apiBase === null ? provider.baseUrl.replace(/\/+$/, "") : session.apiBase;
}

/**
 * Copilot's model list per provider, with the endpoints each model supports, read from `{api}/models`
 * and cached. A model the list does not know is assumed to speak chat completions.
 */
export class CopilotModels {
  readonly #sessions: CopilotSessions;
  readonly #fetcher: typeof fetch;
  readonly #now: () => number;
  readonly #lists = new Map<string, { at: number; models: Map<string, CopilotModel> }>();
  readonly #inflight = new Map<string, Promise<Map<string, CopilotModel>>>();

  constructor(sessions: CopilotSessions, fetcher: typeof fetch, now: () => number) {
    this.#sessions = sessions;
    this.#fetcher = fetcher;
    this.#now = now;
  }

  /** The endpoint to call a model on: chat completions when it has it, else responses, else messages. */
  endpointFor(providerId: string, model: string): CopilotEndpoint {
    const endpoints = this.#lists.get(providerId)?.models.get(model)?.endpoints ?? [];
    return KNOWN.find((e) => endpoints.includes(e)) ?? "/chat/completions";
  }

  /** Whether the cached list is missing or stale (the caller then awaits `list` before choosing). */
  stale(providerId: string): boolean {
    const list = this.#lists.get(providerId);
    return list === undefined || this.#now() - list.at > MODELS_TTL_MS;
  }

  /** Remembers that a model is not served on chat completions (the upstream said so in a 400). */
  learnNotChat(providerId: string, model: string): void {
    let list = this.#lists.get(providerId);
    if (!list) {
      // No list yet (it failed to load): start one that only knows this model, and let it go stale.
      list = { at: -Infinity, models: new Map() };
      this.#lists.set(providerId, list);
    }
    const current = list.models.get(model)?.endpoints ?? [];
    const endpoints = current.filter((e) => e !== "/chat/completions");
    list.models.set(model, { id: model, endpoints: endpoints.length > 0 ? endpoints : ["/responses"] });
  }

  /** Reads the provider's model list (single-flight); a failure leaves the previous list (or none). */
  list(provider: ProviderConfig, defaultBase: string): Promise<Map<string, CopilotModel>> {
    const running = this.#inflight.get(provider.id);
    if (running) return running;
    const work = this.#read(provider, defaultBase).finally(() => this.#inflight.delete(provider.id));
    this.#inflight.set(provider.id, work);
    return work;
  }

  async #read(provider: ProviderConfig, defaultBase: string): Promise<Map<string, CopilotModel>> {
    const session = await this.#sessions.get(provider);
    const answer = await getJson(
      this.#fetcher,
      `${copilotBase(provider, session, defaultBase)}/models`,
      copilotHeaders(session),
    );
    if (answer.status !== 200 || !Array.isArray(answer.json?.data)) {
      throw new Error(`the Copilot model list answered HTTP ${answer.status}`);
    }
    const models = new Map<string, CopilotModel>();
    for (const entry of answer.json.data as unknown[]) {
      const record = (entry ?? {}) as Record<string, unknown>;
      if (typeof record.id !== "string") continue;
      const listed = Array.isArray(record.supported_endpoints) ? record.supported_endpoints : [];
      const endpoints = KNOWN.filter((e) => listed.includes(e));
      models.set(record.id, {
        id: record.id,
        endpoints: listed.length === 0 ? ["/chat/completions"] : endpoints,
      });
    }
    this.#lists.set(provider.id, { at: this.#now(), models });
    return models;
  }
}
