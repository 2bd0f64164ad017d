/** The provider form's draft, how it is checked before sending, and the body it sends. */
import type { ApiType, ProviderCreate, ProviderView } from "../../../src/features/providers/contract.ts";
import { splitList } from "../lib/form.ts";

/** The draft of the create / edit dialog; `editing` is the id of the provider being changed. */
export interface ProviderForm {
  editing: string | null;
  id: string;
  prefix: string;
  apiType: ApiType;
  baseUrl: string;
  apiKey: string;
  models: string;
  /** Kiro: the AWS region of the API hosts (empty: the credential's own). */
  region: string;
  /** Google Cloud Code: the Cloud project (empty: found on first use). */
  project: string;
  /** Azure: the API version ("v1", "preview" or dated). */
  azureApiVersion: string;
  /** Azure: `model=deployment` lines. */
  azureDeployments: string;
}

/** The fields the server may name in an error, in the form's order. */
export const PROVIDER_FIELDS = [
  "id",
  "prefix",
  "api_type",
  "base_url",
  "api_key",
  "region",
  "project",
  "azure_api_version",
  "azure_deployments",
  "models",
] as const;

/** Whether a kind takes the region field (Kiro) or the Cloud project field (Google Cloud Code). */
export function takesRegion(apiType: ApiType): boolean {
  return apiType === "cloud_assistant_oauth";
}

/** Whether a kind takes the Cloud project field (Google Cloud Code). */
export function takesProject(apiType: ApiType): boolean {
  return apiType === "cli_oauth" || apiType === "cli_oauth_alt";
}

/** Whether a kind is an Azure OpenAI resource (API version and deployments). */
export function isAzure(apiType: ApiType): boolean {
  return apiType === "azure_openai" || apiType === "azure_responses";
}

/** A draft for a new provider, or one filled from `p` to edit it (the key stays empty: it is never sent back). */
export function providerForm(p: ProviderView | null): ProviderForm {
  return {
    editing: p?.id ?? null,
    id: p?.id ?? "",
    prefix: p?.prefix ?? "",
    apiType: p?.api_type ?? "chat_compat",
    baseUrl: p?.base_url ?? "",
    apiKey: "",
    models: p ? p.models.join("\n") : "",
    region: p?.region ?? "",
    project: p?.project ?? "",
    azureApiVersion: p?.azure?.api_version ?? "v1",
    azureDeployments: Object.entries(p?.azure?.deployments ?? {}).map(([m, d]) => `${m}=${d}`).join("\n"),
  };
}

/** Client-side checks, so obvious mistakes show beside their field without a round trip. */
export function validateProvider(f: ProviderForm): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!f.editing && !/^[A-Za-z0-9._:-]+$/.test(f.id.trim())) errors.id = "Use letters, digits and _ . : -";
  if (!/^[A-Za-z0-9._-]+$/.test(f.prefix.trim())) {
    errors.prefix = "Use letters, digits and _ . - (no slash)";
  }
  const spaced = splitList(f.models).find((m) => /\s/.test(m));
  if (spaced) errors.models = `"${spaced}" contains a space`;
  if (f.baseUrl.trim() !== "" && !/^https?:\/\/\S+$/.test(f.baseUrl.trim())) {
    errors.base_url = "Enter an http:// or https:// URL";
  }
  if (takesRegion(f.apiType) && f.region.trim() !== "" && !/^[a-z]{2}(-[a-z]+)+-\d$/.test(f.region.trim())) {
    errors.region = "Enter an AWS region such as eu-central-1";
  }
  if (isAzure(f.apiType)) {
    if (!/^(v1|preview|\d{4}-\d{2}-\d{2}(-preview)?)$/.test(f.azureApiVersion.trim())) {
      errors.azure_api_version = "Enter v1, preview or a dated version such as 2024-10-21";
    }
    const bad = splitList(f.azureDeployments).find((line) => !/^[^=\s]+\s*=\s*[^=\s]+$/.test(line));
    if (bad) errors.azure_deployments = `"${bad}" is not model=deployment`;
  }
  return errors;
}

/** The JSON body for create or update; an empty key on edit is left out so the stored one is kept. */
export function providerBody(f: ProviderForm): ProviderCreate {
  return {
    id: f.id.trim(),
    prefix: f.prefix.trim(),
    api_type: f.apiType,
    base_url: f.baseUrl.trim(),
    models: splitList(f.models),
    ...(f.apiKey !== "" || !f.editing ? { api_key: f.apiKey } : {}),
    // Sent only for the kinds that use them (the server refuses them for others); empty clears one.
    ...(takesRegion(f.apiType) ? { region: f.region.trim() } : {}),
    ...(takesProject(f.apiType) ? { project: f.project.trim() } : {}),
    ...azureFields(f),
  };
}

/** The Azure fields of a body (Fetch Models and Test send them too: the URL depends on them). */
export function azureFields(f: ProviderForm): { azure_api_version?: string; azure_deployments?: string } {
  return isAzure(f.apiType)
    ? { azure_api_version: f.azureApiVersion.trim(), azure_deployments: f.azureDeployments }
    : {};
}
