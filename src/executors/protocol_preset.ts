import type { ProviderConfig } from "../config/mod.ts";
import type { UpstreamFormat } from "../model/mod.ts";
import type { UpstreamCodec } from "../wire/mod.ts";
import type { CallShaper } from "./call_shape.ts";

/** How to reach one kind of upstream: its wire format, URL and auth. Providers are data. */
export interface ProtocolPreset {
  readonly format: UpstreamFormat;
  /** The codec that reads and writes this upstream's bodies (the format's own unless enveloped). */
  readonly codec: UpstreamCodec;
  /** The upstream only answers as a stream: a non-stream client gets the stream collected. */
  readonly alwaysStream?: boolean;
  /**
   * For kinds whose calls depend on the stored credential (project, region, hosts): builds the calls from
   * the encoded body. Kinds without one use `url` and `authHeaders`.
   */
  readonly shaper?: CallShaper;
  /** Builds the upstream URL from the provider's base URL. */
  url(baseUrl: string, upstreamModel: string, stream: boolean): string;
  /** Headers that authenticate the call. */
  authHeaders(apiKey: string): Record<string, string>;
  /** URL of the upstream's model list (Fetch Models). */
  modelsUrl(baseUrl: string): string;
  /** URL of the upstream's own token-counting endpoint, where it has one. */
  countUrl?(baseUrl: string, upstreamModel: string): string;
  /** The name the upstream knows a model by, in the body (Azure: its deployment); absent: the model itself. */
  upstreamModel?(model: string): string;
  /** Where OpenAI-style operations live, for kinds that do not put them under the base URL (Azure). */
  operationUrl?(baseUrl: string, path: string, model: string): string;
  /** Kinds whose calls depend on the provider's own settings: the preset for one provider (`presetOf`). */
  bind?(provider: PresetSettings): ProtocolPreset;
}

/** What of a provider its preset may depend on: the kind and the kind's own settings. */
export type PresetSettings = Pick<ProviderConfig, "apiType" | "azure">;
