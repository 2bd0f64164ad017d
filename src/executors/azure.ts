/**
 * Azure OpenAI: the OpenAI wire formats at a resource's own addresses. The v1 API
 * (`{endpoint}/openai/v1/chat/completions`) names the deployment in the body's `model`; a dated API version
 * calls `{endpoint}/openai/deployments/{deployment}/chat/completions?api-version=…`. Both take the key in
 * an `api-key` header. Providers hold the settings (`providers[].azure`); this module turns them into a
 * `ProtocolPreset` bound to one provider.
 */
import type { AzureSettings } from "../config/mod.ts";
import type { UpstreamFormat } from "../model/mod.ts";
import { upstreamCodecFor } from "../wire/mod.ts";
import type { ProtocolPreset } from "./protocol_preset.ts";

/** The settings of an Azure provider that has none stored: the v1 API, every model its own deployment. */
export const AZURE_DEFAULTS: AzureSettings = { apiVersion: "v1", deployments: {} };

/** True for the API versions that mean the v1 API (no deployment in the path). */
function isV1(apiVersion: string): boolean {
  return apiVersion === "v1" || apiVersion === "preview";
}

/**
 * The resource endpoint of a base URL: a pasted `…/openai` or `…/openai/v1` is cut back to the host part,
 * so the form takes the endpoint as the Azure portal shows it or as the OpenAI SDK's baseURL.
 */
export function azureEndpoint(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, "").replace(/\/openai(\/v1)?$/, "");
}

/** The deployment a model is served by (its own name unless the provider maps it). */
export function azureDeployment(settings: AzureSettings, model: string): string {
  return settings.deployments[model] ?? model;
}

/**
 * The URL of one OpenAI-style operation (`/chat/completions`, `/embeddings`, `/images/generations`, …) for a
 * model. Operations that take no deployment (`/responses`, `/models`) pass `model` null.
 */
export function azureOperationUrl(
  baseUrl: string,
  settings: AzureSettings,
  path: string,
  model: string | null,
): string {
  const endpoint = azureEndpoint(baseUrl);
  if (isV1(settings.apiVersion)) {
    // "preview" opts the v1 API into preview features; plain v1 needs no query.
    const query = settings.apiVersion === "preview" ? "?api-version=preview" : "";
    return `${endpoint}/openai/v1${path}${query}`;
  }
  const version = `?api-version=${encodeURIComponent(settings.apiVersion)}`;
  if (model === null) return `${endpoint}/openai${path}${version}`;
  const deployment = encodeURIComponent(azureDeployment(settings, model));
  return `${endpoint}/openai/deployments/${deployment}${path}${version}`;
}

const apiKeyHeader = (apiKey: string): Record<string, string> => apiKey ? { "api-key": apiKey } : {};

/** The preset of an Azure provider speaking `format` (chat completions or responses) with these settings. */
export function azurePreset(
  format: Extract<UpstreamFormat, "chat_completions" | "responses">,
  settings: AzureSettings,
): ProtocolPreset {
  return {
    format,
    codec: upstreamCodecFor(format),
    url: (base, model) =>
      format === "responses"
        // The Responses API has no per-deployment path: the deployment travels in the body.
        ? azureOperationUrl(base, settings, "/responses", null)
        : azureOperationUrl(base, settings, "/chat/completions", model),
    authHeaders: apiKeyHeader,
    modelsUrl: (base) => azureOperationUrl(base, settings, "/models", null),
    upstreamModel: (model) => azureDeployment(settings, model),
    operationUrl: (base, path, model) => azureOperationUrl(base, settings, path, model),
    bind: (provider) => azurePreset(format, provider.azure ?? AZURE_DEFAULTS),
  };
}
