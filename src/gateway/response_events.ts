import type { NeutralResponse, StreamEvent } from "../model/mod.ts";

/** A complete response as neutral stream events (stream clients answered from a whole response). */
export function* responseEvents(response: NeutralResponse): Generator<StreamEvent> {
  yield { type: "start", id: response.id, model: response.model, created: response.created };
  let index = 0;
  for (const part of response.parts) {
    switch (part.kind) {
      case "text":
        yield { type: "blockStart", index, kind: "text" };
        yield { type: "textDelta", index, text: part.text };
        break;
      case "reasoning":
        yield {
          type: "blockStart",
          index,
          kind: "reasoning",
          redactedData: part.redactedData,
          family: part.family,
        };
        if (part.text) yield { type: "textDelta", index, text: part.text };
        if (part.signature) yield { type: "signatureDelta", index, signature: part.signature };
        break;
      case "toolCall":
        yield {
          type: "blockStart",
          index,
          kind: "toolCall",
          id: part.id,
          name: part.name,
          family: part.family,
        };
        yield { type: "argumentsDelta", index, json: part.arguments };
        // Gemini's thoughtSignature on a functionCall part: the client must get it to send it back.
        if (part.signature) yield { type: "signatureDelta", index, signature: part.signature };
        break;
      case "image":
      case "toolResult":
        continue;
    }
    yield { type: "blockEnd", index };
    index++;
  }
  yield { type: "usage", usage: response.usage };
  yield { type: "finish", finish: response.finish };
}
