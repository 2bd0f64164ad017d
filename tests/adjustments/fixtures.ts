import type { Message, NeutralRequest, WireFormat } from "../../src/model/mod.ts";
import { capabilitiesFor } from "../../src/adjustments/mod.ts";
import type { AdjustTarget, ModelCapabilities } from "../../src/adjustments/mod.ts";

/** A neutral request with the given messages and overrides. */
export function request(messages: Message[] = [], overrides: Partial<NeutralRequest> = {}): NeutralRequest {
  return {
    model: "p/model",
    system: [],
    messages,
    tools: [],
    params: {},
    stream: false,
    source: "chat_completions",
    ...overrides,
  };
}

/** An attempt target for `model` over `format`. */
export function target(
  model: string,
  format: WireFormat,
  overrides: Partial<Omit<AdjustTarget, "capabilities">> & { capabilities?: Partial<ModelCapabilities> } = {},
): AdjustTarget {
  const { capabilities, ...rest } = overrides;
  return {
    upstreamFormat: format,
    model,
    capabilities: capabilitiesFor(model, capabilities),
    clientKind: "other",
    providerIsLocal: false,
    ...rest,
  };
}
