import type { Finish } from "../../model/mod.ts";

/** What the Responses API says about how a response ended. */
export interface WireStatus {
  readonly status: "completed" | "incomplete" | "failed";
  readonly incompleteDetails: { readonly reason: string } | null;
}

/**
 * Derives the neutral finish from a response's `status` and `incomplete_details.reason`; the raw value
 * kept is the reason when there is one, else the status.
 */
export function finishFromWire(
  status: string | null | undefined,
  incompleteReason: string | null | undefined,
  hasToolCalls: boolean,
): Finish {
  switch (status) {
    case "completed":
    case null:
    case undefined:
      return { unified: hasToolCalls ? "tool_calls" : "stop", raw: status ?? null };
    case "incomplete": {
      const raw = incompleteReason ?? "incomplete";
      if (raw === "max_output_tokens") return { unified: "length", raw };
      if (raw === "content_filter") return { unified: "content_filter", raw };
      return { unified: "other", raw };
    }
    case "failed":
      return { unified: "error", raw: status };
    default:
      return { unified: "other", raw: status };
  }
}

/** The status and incomplete details a neutral finish becomes on the wire. */
export function wireStatusFor(finish: Finish): WireStatus {
  switch (finish.unified) {
    case "length":
      return { status: "incomplete", incompleteDetails: { reason: "max_output_tokens" } };
    case "content_filter":
      return { status: "incomplete", incompleteDetails: { reason: "content_filter" } };
    case "error":
      return { status: "failed", incompleteDetails: null };
    case "stop":
    case "tool_calls":
    case "other":
      return { status: "completed", incompleteDetails: null };
  }
}
