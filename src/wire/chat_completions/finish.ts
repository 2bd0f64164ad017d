import type { Finish } from "../../model/mod.ts";

/** Maps a chat-completions `finish_reason` to the neutral finish, keeping the raw value. */
export function decodeFinish(raw: string): Finish {
  switch (raw.toLowerCase()) {
    case "stop":
      return { unified: "stop", raw };
    case "length":
      return { unified: "length", raw };
    case "tool_calls":
    case "function_call":
      return { unified: "tool_calls", raw };
    case "content_filter":
      return { unified: "content_filter", raw };
    default:
      return { unified: "other", raw };
  }
}

/** Maps a neutral finish to a `finish_reason` every OpenAI client understands. */
export function encodeFinish(finish: Finish): string {
  switch (finish.unified) {
    case "stop":
      return "stop";
    case "length":
      return "length";
    case "tool_calls":
      return "tool_calls";
    case "content_filter":
      return "content_filter";
    case "error":
    case "other":
      // Clients switch on the documented values only; anything else reads as a normal stop.
      return "stop";
  }
}
