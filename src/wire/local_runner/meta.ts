import type { ModelKind } from "../../model/mod.ts";
import { stableHash } from "../shared/mod.ts";

/** Model capabilities /api/show and /api/tags advertise. */
export interface ShowCapabilities {
  /** A model of another kind than chat lists that kind alone (Ollama says `embedding` for embedders). */
  readonly kind?: ModelKind;
  readonly vision?: boolean;
  readonly tools?: boolean;
  readonly thinking?: boolean;
}

/** A routable model as /api/tags lists it. */
export interface TagsModel {
  readonly name: string;
  /** ISO-8601 timestamp. */
  readonly modifiedAt: string;
  /** What it can do; `kind` also goes beside Ollama's fields as the gateway's own `kind`. */
  readonly capabilities?: ShowCapabilities;
}

/**
 * Ollama's `capabilities` list: a chat model's `completion` (and `tools`, `vision`, `thinking`), or another
 * kind's name alone (`embedding` is Ollama's own word; `rerank`, `image`, … are the gateway's kinds).
 */
function capabilityList(capabilities: ShowCapabilities): string[] {
  if (capabilities.kind !== undefined && capabilities.kind !== "chat") return [capabilities.kind];
  const caps = ["completion"];
  if (capabilities.tools) caps.push("tools");
  if (capabilities.vision) caps.push("vision");
  if (capabilities.thinking) caps.push("thinking");
  return caps;
}

/** A deterministic 64-hex digest for a model name (clients use it as a cache key, nothing more). */
export function modelDigest(name: string): string {
  let digest = "";
  for (let round = 0; digest.length < 64; round++) digest += stableHash(`${round}:${name}`);
  return digest;
}

/** The family clients show next to a model: its provider prefix, or "gateway" for bare names (combos). */
function familyOf(name: string): string {
  const slash = name.indexOf("/");
  return slash > 0 ? name.slice(0, slash) : "gateway";
}

function details(name: string): Record<string, unknown> {
  const family = familyOf(name);
  return {
    parent_model: "",
    format: "gguf",
    family,
    families: [family],
    parameter_size: "",
    quantization_level: "",
  };
}

/**
 * The GET /api/tags body for the routable models. Recent Ollama servers list each model's `capabilities`
 * here as /api/show does; the gateway does the same and adds `kind` (as in /v1/models) beside them.
 */
export function tagsBody(models: readonly TagsModel[]): { models: Record<string, unknown>[] } {
  return {
    models: models.map((m) => ({
      name: m.name,
      model: m.name,
      modified_at: m.modifiedAt,
      size: 0,
      digest: modelDigest(m.name),
      details: details(m.name),
      ...(m.capabilities === undefined
        ? {}
        : { capabilities: capabilityList(m.capabilities), kind: m.capabilities.kind ?? "chat" }),
    })),
  };
}

/** The POST /api/show body for one model; `modifiedAt` defaults to the epoch to keep this pure. */
export function showBody(
  model: string,
  capabilities: ShowCapabilities,
  modifiedAt = "1970-01-01T00:00:00.000Z",
): Record<string, unknown> {
  const caps = capabilityList(capabilities);
  return {
    modelfile: `FROM ${model}\n`,
    parameters: "",
    template: "{{ .Prompt }}",
    details: details(model),
    model_info: {},
    capabilities: caps,
    modified_at: modifiedAt,
  };
}

/** The GET /api/version body. */
export function versionBody(version: string): { version: string } {
  return { version };
}
