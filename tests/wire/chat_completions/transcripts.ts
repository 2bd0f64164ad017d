/** Upstream chat-completion stream transcripts shared by the stream tests. */
import { frames } from "./stream_helpers.ts";

/** One chat-completion chunk with a single choice at index 0. */
export function chunk(
  delta: Record<string, unknown>,
  finish: string | null = null,
  extra: Record<string, unknown> = {},
) {
  return {
    id: "chatcmpl-xyz789",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "gpt-4o",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    usage: null,
    ...extra,
  };
}

/** A realistic transcript: role chunk, text, two parallel tool calls, finish, then a usage chunk. */
export const PARALLEL_TOOLS_TRANSCRIPT = frames(
  chunk({ role: "assistant", content: "" }),
  chunk({ content: "Checking " }),
  chunk({ content: "both." }),
  chunk({
    tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "weather", arguments: "" } }],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
  chunk({
    tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "weather", arguments: "" } }],
  }),
  chunk({ tool_calls: [{ index: 1, function: { arguments: '{"city":"Rome"}' } }] }),
  chunk({}, "tool_calls"),
  {
    id: "chatcmpl-xyz789",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "gpt-4o",
    choices: [],
    usage: {
      prompt_tokens: 80,
      completion_tokens: 30,
      total_tokens: 110,
      prompt_tokens_details: { cached_tokens: 16 },
      completion_tokens_details: { reasoning_tokens: 0 },
    },
  },
  "[DONE]",
);
