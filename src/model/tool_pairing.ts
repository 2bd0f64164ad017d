import type { NeutralRequest } from "./request.ts";

/**
 * The first tool result whose call id matches no earlier tool call, or null. Every upstream rejects
 * such a conversation in its own words; the gateway says it clearly before any upstream call.
 */
export function orphanToolResult(request: NeutralRequest): string | null {
  // Most requests carry no tool traffic: the set is made when the first call appears.
  let calls: Set<string> | undefined;
  for (const message of request.messages) {
    for (const part of message.parts) {
      if (part.kind === "toolCall") (calls ??= new Set()).add(part.id);
      else if (part.kind === "toolResult" && !calls?.has(part.callId)) return part.callId;
    }
  }
  return null;
}
