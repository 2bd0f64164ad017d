import type { ProviderConfig } from "../../config/mod.ts";
import { oauthKind } from "../../credentials/mod.ts";
import { DEFAULT_ANTHROPIC_VERSION } from "../../executors/presets.ts";
import {
  collectResponsesSse,
  isSubscriptionKind,
  type SubscriptionCall,
  type Subscriptions,
} from "../../executors/oauth/mod.ts";
import { codecFor } from "../../wire/mod.ts";
import {
  type FetchModelsResult,
  firstLine,
  modelIds,
  pingRequest,
  postProbe,
  type ProbeResult,
  probeResults,
  readModelList,
  summarize,
} from "./probe.ts";
import { shapedModels, shapedProbe } from "./shaped_probe.ts";

/**
 * Fetch Models and Test Connection for every kind with a stored OAuth credential (`hasStoredCredential`),
 * through the same credential path as requests.
 */
export interface SubscriptionConsole {
  fetchModels(provider: ProviderConfig): Promise<FetchModelsResult>;
  probe(provider: ProviderConfig, model: string): Promise<ProbeResult>;
}

const NO_CLIENT = { hasImages: false, agentTurn: false, clientHeaders: new Headers(), conversation: null };

/** The console over the runtime's subscriptions (the composition root builds it). */
export function subscriptionConsole(
  subscriptions: Subscriptions,
  now: () => number,
  fetcher: typeof fetch = fetch,
): SubscriptionConsole {
  return {
    async fetchModels(provider) {
      if (!isSubscriptionKind(provider.apiType)) return await shapedModels(subscriptions, provider, fetcher);
      let url = "";
      try {
        if (provider.apiType === "device_oauth_assistant") {
          const models = await subscriptions.copilotModels.list(
            provider,
            oauthKind(provider.apiType)!.defaultBaseUrl,
          );
          return { ok: true, models: [...models.keys()].sort(), url: "copilot /models" };
        }
        const call = await subscriptions.call(provider, { ...NO_CLIENT, model: provider.models[0] ?? "" });
        const base = provider.baseUrl.replace(/\/+$/, "");
        url = provider.apiType === "messages_oauth"
          ? `${base}/v1/models`
          : `${base}/models?client_version=1.0.0`;
        return await readModelList(url, callHeaders(call), subscriptionModelIds, fetcher);
      } catch (error) {
        return { ok: false, message: firstLine(error), url };
      }
    },

    async probe(provider, model) {
      if (!isSubscriptionKind(provider.apiType)) {
        return await shapedProbe(subscriptions, provider, model, now, fetcher);
      }
      const result = probeResults(model, now);
      try {
        const call = await subscriptions.call(provider, { ...NO_CLIENT, model });
        const request = pingRequest(model, call.alwaysStream, call.format);
        let body = codecFor(call.format).encodeRequest(request, model).body;
        if (call.rewriteBody) body = call.rewriteBody(body).body;
        const response = await postProbe(
          call.url,
          { "content-type": "application/json", ...callHeaders(call) },
          JSON.stringify(body),
          fetcher,
        );
        const text = await response.text();
        if (!response.ok) {
          return result.failed(response.status, `HTTP ${response.status}: ${summarize(text)}`);
        }
        if (call.alwaysStream) {
          const collected = collectResponsesSse(text);
          if (collected.kind === "error") return result.failed(502, `stream error: ${collected.message}`);
        }
        return result.connected(response.status);
      } catch (error) {
        return result.failed(0, firstLine(error));
      }
    },
  };
}

/** A subscription call's headers for a direct request (the messages kinds need the version and betas). */
function callHeaders(call: SubscriptionCall): Record<string, string> {
  if (call.format !== "messages") return call.headers;
  return {
    ...call.headers,
    "anthropic-version": DEFAULT_ANTHROPIC_VERSION,
    ...(call.betas.length > 0 ? { "anthropic-beta": call.betas.join(",") } : {}),
  };
}

/** Model ids of the list shapes: OpenAI/Anthropic `data[].id`, the ChatGPT backend's `models[].slug`. */
function subscriptionModelIds(body: unknown): string[] {
  const models = (body as { models?: unknown })?.models;
  if (Array.isArray(models) && models.some((m) => typeof (m as { slug?: unknown })?.slug === "string")) {
    return [
      ...new Set(
        models.map((m) => (m as { slug?: unknown }).slug).filter((s): s is string => typeof s === "string"),
      ),
    ]
      .sort();
  }
  return modelIds(body);
}
