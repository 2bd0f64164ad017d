import type {
  GatewayWarning,
  ImagePart,
  Message,
  NeutralRequest,
  Part,
  ToolDefinition,
} from "../../model/mod.ts";
import { addWarnings, warning } from "../../model/mod.ts";
import type { EncodedRequest } from "../codec.ts";
import { argumentsLost, argumentsObject } from "../shared/mod.ts";

/** Max tokens sent when the client set none (the assistant's own default is far lower). */
export const KIRO_DEFAULT_MAX_TOKENS = 32000;
/** Tool descriptions past this many characters are cut: the upstream refuses longer ones. */
export const KIRO_MAX_TOOL_DESCRIPTION = 10240;
/** The origin the CodeWhisperer endpoints expect; the executor swaps it per host (the Q endpoint wants CLI). */
export const KIRO_DEFAULT_ORIGIN = "AI_EDITOR";

type Wire = Record<string, unknown>;

/** One turn on its way to the wire: user turns carry tool results and images, assistant turns tool uses. */
interface Turn {
  role: "user" | "assistant";
  text: string;
  images: Wire[];
  toolResults: Wire[];
  toolUses: Wire[];
}

/**
 * Neutral request → the conversation-state body. The last user turn is the current message (with the
 * system text in front of it and the tool specs beside it); earlier turns are history, merged so roles
 * alternate as the upstream requires. `conversationId`, `profileArn` and the host's origin are added by
 * the executor (they are per call and per host, not per request).
 */
export function encodeRequest(request: NeutralRequest, upstreamModel: string): EncodedRequest {
  const warnings: GatewayWarning[] = [];
  const turns = mergeTurns(request.messages.map((m) => toTurn(m, warnings)));
  // The current message must be a user turn; a trailing assistant turn (a prefill) stays in history.
  const current = turns.at(-1)?.role === "user" ? turns.pop()! : emptyTurn("user");
  if (turns[0]?.role === "assistant") turns.unshift(emptyTurn("user"));
  const system = request.system.map((p) => p.text).filter((t) => t !== "").join("\n\n");
  const content = [system, current.text].filter((t) => t !== "").join("\n\n");

  const context: Wire = {};
  if (request.tools.length > 0) context.tools = request.tools.map(toolSpec);
  if (current.toolResults.length > 0) context.toolResults = current.toolResults;
  const userInputMessage: Wire = {
    content: content === "" ? "continue" : content,
    modelId: upstreamModel,
    origin: KIRO_DEFAULT_ORIGIN,
    ...(current.images.length > 0 ? { images: current.images } : {}),
    ...(Object.keys(context).length > 0 ? { userInputMessageContext: context } : {}),
  };

  const conversationState: Wire = { chatTriggerType: "MANUAL", currentMessage: { userInputMessage } };
  if (turns.length > 0) conversationState.history = turns.map((t) => historyEntry(t, upstreamModel));

  const { params } = request;
  const inferenceConfig: Wire = { maxTokens: params.maxTokens ?? KIRO_DEFAULT_MAX_TOKENS };
  if (params.temperature !== undefined) inferenceConfig.temperature = params.temperature;
  if (params.topP !== undefined) inferenceConfig.topP = params.topP;
  if (params.stop?.length) {
    warnings.push(
      warning("dropped_field:stop", "dropped stop sequences: the cloud assistant has no such setting"),
    );
  }
  if (params.seed !== undefined) {
    warnings.push(warning("dropped_field:seed", "dropped seed: the cloud assistant has no such setting"));
  }
  if (params.topK !== undefined) {
    warnings.push(warning("dropped_field:top_k", "dropped top_k: the cloud assistant has no such setting"));
  }
  if (request.toolChoice && request.toolChoice.type !== "auto" && request.tools.length > 0) {
    warnings.push(warning(
      "dropped_field:tool_choice",
      `dropped tool_choice "${request.toolChoice.type}": the cloud assistant always decides itself`,
    ));
  }
  if (request.reasoning) {
    warnings.push(
      warning("dropped_field:thinking", "dropped reasoning settings: the cloud assistant does not take them"),
    );
  }
  return { body: { conversationState, inferenceConfig }, warnings };
}

function emptyTurn(role: Turn["role"]): Turn {
  return { role, text: "", images: [], toolResults: [], toolUses: [] };
}

function toTurn(message: Message, warnings: GatewayWarning[]): Turn {
  const turn = emptyTurn(message.role === "assistant" ? "assistant" : "user");
  const texts: string[] = [];
  for (const part of message.parts) addPart(turn, texts, part, warnings);
  turn.text = texts.join("");
  return turn;
}

function addPart(turn: Turn, texts: string[], part: Part, warnings: GatewayWarning[]): void {
  switch (part.kind) {
    case "text":
      texts.push(part.text);
      return;
    case "image": {
      const image = encodeImage(part);
      if (image && turn.role === "user") turn.images.push(image);
      else {
        addWarnings(warnings, [
          warning(
            "dropped_part:image",
            "dropped an image: the cloud assistant takes only inline images in user turns",
          ),
        ]);
      }
      return;
    }
    case "toolCall":
      if (argumentsLost(part.arguments)) {
        addWarnings(warnings, [warning(
          "changed_field:tool_arguments",
          `tool call "${part.name}" had arguments that are not a JSON object; sent as {}`,
          { tool: part.name },
        )]);
      }
      turn.toolUses.push({ toolUseId: part.id, name: part.name, input: argumentsObject(part.arguments) });
      return;
    case "toolResult": {
      const text = part.content.map((c) => c.kind === "text" ? c.text : "").join("");
      if (part.content.some((c) => c.kind === "image")) {
        addWarnings(warnings, [
          warning(
            "dropped_part:image",
            "dropped an image inside a tool result: the cloud assistant takes text results only",
          ),
        ]);
      }
      turn.toolResults.push({
        toolUseId: part.callId,
        status: part.isError ? "error" : "success",
        content: [{ text }],
      });
      return;
    }
    case "reasoning":
      // Earlier reasoning is not replayed: the upstream has no field for it and no signature to check.
      return;
  }
}

/** Consecutive turns of one role become one turn: the upstream rejects two user turns in a row. */
function mergeTurns(turns: readonly Turn[]): Turn[] {
  const out: Turn[] = [];
  for (const turn of turns) {
    const last = out.at(-1);
    if (last && last.role === turn.role) {
      last.text = [last.text, turn.text].filter((t) => t !== "").join("\n\n");
      last.images.push(...turn.images);
      last.toolResults.push(...turn.toolResults);
      last.toolUses.push(...turn.toolUses);
    } else out.push(turn);
  }
  return out;
}

function historyEntry(turn: Turn, modelId: string): Wire {
  if (turn.role === "assistant") {
    return {
      assistantResponseMessage: {
        content: turn.text === "" ? "..." : turn.text,
        ...(turn.toolUses.length > 0 ? { toolUses: turn.toolUses } : {}),
      },
    };
  }
  return {
    userInputMessage: {
      content: turn.text === "" ? "continue" : turn.text,
      modelId,
      origin: KIRO_DEFAULT_ORIGIN,
      ...(turn.images.length > 0 ? { images: turn.images } : {}),
      ...(turn.toolResults.length > 0 ? { userInputMessageContext: { toolResults: turn.toolResults } } : {}),
    },
  };
}

function encodeImage(part: ImagePart): Wire | undefined {
  if (part.source.type !== "base64") return undefined;
  const subtype = part.source.mediaType.split("/")[1]?.toLowerCase() ?? "";
  const format = subtype === "jpg" ? "jpeg" : subtype;
  if (!["png", "jpeg", "gif", "webp"].includes(format)) return undefined;
  return { format, source: { bytes: part.source.data } };
}

function toolSpec(tool: ToolDefinition): Wire {
  const description = tool.description?.trim() ? tool.description : `Tool: ${tool.name}`;
  // The upstream rejects an input schema without `required`.
  const schema = { ...tool.parameters, required: tool.parameters.required ?? [] };
  return {
    toolSpecification: {
      name: tool.name,
      description: description.slice(0, KIRO_MAX_TOOL_DESCRIPTION),
      inputSchema: { json: schema },
    },
  };
}
