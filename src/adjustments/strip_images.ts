import type { GatewayWarning, Message, NeutralRequest, Part, TextPart } from "../model/mod.ts";
import { warning } from "../model/mod.ts";
import type { AdjustTarget } from "./target.ts";

/** The text that takes an image's place for models without vision. */
export const IMAGE_PLACEHOLDER = "[image omitted: the target model does not accept images]";

const placeholder: TextPart = { kind: "text", text: IMAGE_PLACEHOLDER };

function stripParts(parts: readonly Part[]): readonly Part[] {
  let changed = false;
  const out = parts.map((part): Part => {
    if (part.kind === "image") {
      changed = true;
      return placeholder;
    }
    if (part.kind === "toolResult" && part.content.some((item) => item.kind === "image")) {
      changed = true;
      return { ...part, content: part.content.map((item) => item.kind === "image" ? placeholder : item) };
    }
    return part;
  });
  return changed ? out : parts;
}

/**
 * Replaces images with a text placeholder, only when the model is known to lack vision (and says so with
 * `dropped_part:image`: the client sent images the model never saw). An unknown model keeps its images:
 * the upstream's own error is better than silently losing them.
 */
export function stripUnsupportedImages(
  request: NeutralRequest,
  target: AdjustTarget,
  warn: (warning: GatewayWarning) => void = () => {},
): NeutralRequest {
  if (target.capabilities.vision !== false) return request;
  let changed = false;
  const messages = request.messages.map((message): Message => {
    const parts = stripParts(message.parts);
    if (parts === message.parts) return message;
    changed = true;
    return { ...message, parts };
  });
  if (!changed) return request;
  warn(
    warning("dropped_part:image", `images replaced by a placeholder: ${target.model} does not accept images`),
  );
  return { ...request, messages };
}
