import type { RequestRowView } from "../../../../src/features/request_logs/contract.ts";
import { call } from "../../api/client.ts";

/** How often and how long to look for a request's row after the answer ended (the log writes in batches). */
const ROW_POLL_MS = 250;
const ROW_POLL_TRIES = 40;

/**
 * A request's row in the request log by its uid (from `x-gateway-request-id`): its cost, serving account,
 * tokens and the gateway's timings. Null when it never appears or `wanted()` turns false (a newer run).
 */
export async function requestRow(uid: string, wanted: () => boolean): Promise<RequestRowView | null> {
  if (uid === "") return null;
  for (let i = 0; i < ROW_POLL_TRIES && wanted(); i++) {
    const result = await call("GET /requests/:uid", { params: { uid } });
    if (result.ok) return result.data.request;
    // 404 until the batched writer has written the row; anything else will not get better.
    if (result.status !== 404) return null;
    await new Promise((resolve) => setTimeout(resolve, ROW_POLL_MS));
  }
  return null;
}
