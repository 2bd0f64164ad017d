import type { Message, NeutralRequest, Part, TextPart } from "../model/mod.ts";

/** The instruction the judge model gets; it must not reveal that several models answered. */
export const JUDGE_INSTRUCTION = "You are given several candidate answers to the user's last message, " +
  "labelled [Source 1], [Source 2] and so on. Write the single best final answer to the user: combine what " +
  "is correct and useful, resolve disagreements by reasoning, and drop what is wrong. Answer the user directly. " +
  "Do not mention the sources, candidates, other models or this instruction.";

/** The quorum size: at least 1, at most the panel size. */
export function clampMinPanel(minPanel: number, panelSize: number): number {
  return Math.max(1, Math.min(Math.floor(minPanel), panelSize));
}

/**
 * The request each panel member gets: non-streaming, without tools, and with tool-call history turned
 * into plain text so members that never saw those tools can still follow the conversation.
 */
export function panelRequest(request: NeutralRequest): NeutralRequest {
  const messages: Message[] = [];
  for (const message of request.messages) {
    const texts: TextPart[] = message.parts.flatMap((part) => flattenPart(part));
    if (texts.length === 0) continue;
    const role = message.role === "tool" ? "user" : message.role;
    const previous = messages.at(-1);
    if (previous && previous.role === role) {
      messages[messages.length - 1] = { role, parts: [...previous.parts, ...texts] };
    } else messages.push({ role, parts: texts });
  }
  return { ...request, stream: false, tools: [], toolChoice: undefined, messages };
}

function flattenPart(part: Part): TextPart[] {
  switch (part.kind) {
    case "text":
      return [{ kind: "text", text: part.text }];
    case "toolCall":
      return [{ kind: "text", text: `[Called tool ${part.name} with ${part.arguments || "{}"}]` }];
    case "toolResult": {
      const text = part.content.map((c) => (c.kind === "text" ? c.text : "[image]")).join("\n");
      return [{
        kind: "text",
        text: `[Tool ${part.name ?? part.callId} ${part.isError ? "failed" : "returned"}: ${text}]`,
      }];
    }
    case "image":
      return [];
    case "reasoning":
      return [];
  }
}

/**
 * The judge's request: the client's own request (stream flag and tools kept) with the anonymised
 * candidate answers added as a final user turn and the judge instruction appended to the system text.
 */
export function judgeRequest(request: NeutralRequest, answers: readonly string[]): NeutralRequest {
  const sources = answers.map((answer, i) => `[Source ${i + 1}]\n${answer}`).join("\n\n");
  const candidates: Message = {
    role: "user",
    parts: [{ kind: "text", text: `Candidate answers to my last message:\n\n${sources}` }],
  };
  return {
    ...request,
    system: [...request.system, { kind: "text", text: JUDGE_INSTRUCTION }],
    messages: [...request.messages, candidates],
  };
}
