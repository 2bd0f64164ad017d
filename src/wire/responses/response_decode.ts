import type { NeutralResponse, Part } from "../../model/mod.ts";
import { GatewayError, splitExtra, ZERO_USAGE } from "../../model/mod.ts";
import { isRecord } from "../shared/mod.ts";
import { finishFromWire } from "./finish.ts";
import { ResponseObjectSchema } from "./schema.ts";
import { usageFromWire } from "./usage.ts";
import { unwrapForeignReasoning } from "./foreign_reasoning.ts";

const FORMAT = "responses";

// Fields the neutral response holds or the encoder recomputes; everything else is kept in extra.
const COMPUTED_FIELDS = new Set([
  "id",
  "object",
  "created_at",
  "status",
  "model",
  "output",
  "output_text",
  "usage",
  "incomplete_details",
  "error",
]);

function upstreamError(message: string, body: unknown): GatewayError {
  return new GatewayError(502, "upstream", message, { upstreamBody: JSON.stringify(body) });
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Reads one output item into neutral parts; hosted-tool items have no neutral form and are skipped. */
function partsOf(item: unknown, parts: Part[]): void {
  if (!isRecord(item)) return;
  switch (item.type) {
    case "message":
      for (const content of Array.isArray(item.content) ? item.content : []) {
        if (!isRecord(content)) continue;
        if (content.type === "output_text") parts.push({ kind: "text", text: text(content.text) });
        else if (content.type === "refusal") parts.push({ kind: "text", text: text(content.refusal) });
      }
      return;
    case "function_call":
      parts.push({
        kind: "toolCall",
        id: text(item.call_id) || text(item.id),
        name: text(item.name),
        arguments: text(item.arguments),
        ...(typeof item.id === "string" ? { extra: { format: FORMAT, fields: { id: item.id } } } : {}),
      });
      return;
    case "reasoning": {
      const summary = Array.isArray(item.summary) ? item.summary : [];
      const content = Array.isArray(item.content) ? item.content : [];
      const pieces = (summary.length > 0 ? summary : content).map((s) => (isRecord(s) ? text(s.text) : ""));
      const encrypted = text(item.encrypted_content);
      // An upstream that is itself a gateway wraps unsigned reasoning in its envelope: that is plain text.
      // Signed envelopes stay opaque, to go back to that gateway as they came.
      const wrapped = encrypted ? unwrapForeignReasoning(encrypted) : undefined;
      const unsigned = wrapped?.text !== undefined && !wrapped.signature && !wrapped.redactedData;
      parts.push({
        kind: "reasoning",
        text: pieces.join("\n\n") || (unsigned ? wrapped.text ?? "" : ""),
        ...(unsigned
          ? { family: wrapped.family }
          : { family: "openai" as const, ...(encrypted ? { redactedData: encrypted } : {}) }),
        ...(typeof item.id === "string" ? { extra: { format: FORMAT, fields: { id: item.id } } } : {}),
      });
      return;
    }
  }
}

/** Upstream Responses body → neutral; an error body or a non-response throws GatewayError(502, upstream). */
export function decodeResponse(body: unknown): NeutralResponse {
  if (!isRecord(body)) throw upstreamError("Upstream response is not a JSON object", body);
  if (isRecord(body.error)) {
    const message = text(body.error.message) || text(body.error.code) || "unknown error";
    throw upstreamError(`Upstream response failed: ${message}`, body);
  }
  const parsed = ResponseObjectSchema.safeParse(body);
  if (!parsed.success) throw upstreamError("Upstream body is not a Responses API response object", body);
  const response = parsed.data;
  const parts: Part[] = [];
  for (const item of response.output) partsOf(item, parts);
  const incomplete = isRecord(response.incomplete_details) ? text(response.incomplete_details.reason) : "";
  const extra = splitExtra(response, COMPUTED_FIELDS, FORMAT);
  return {
    id: response.id,
    model: response.model ?? "",
    ...(typeof response.created_at === "number" ? { created: response.created_at } : {}),
    parts,
    finish: finishFromWire(response.status, incomplete || null, parts.some((p) => p.kind === "toolCall")),
    usage: usageFromWire(response.usage) ?? ZERO_USAGE,
    ...(extra ? { extra } : {}),
  };
}
