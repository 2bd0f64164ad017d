import type { RequestCursor, RequestFilter, Store } from "../../storage/mod.ts";
import type { RequestExportRow } from "./contract.ts";
import { logDetail, requestRowView } from "./state.ts";

/** Most requests one export holds (newest first): a million rows with bodies would not fit in memory. */
export const EXPORT_MAX_ROWS = 100_000;

/** Rows read per page while exporting. */
const EXPORT_PAGE = 1_000;

/**
 * The requests matching `filter`, newest first, up to EXPORT_MAX_ROWS, each with its captured bodies and
 * warnings when they are still kept.
 */
export function exportRequests(
  store: Pick<Store, "requests" | "requestLogs">,
  filter: RequestFilter,
): RequestExportRow[] {
  const rows: RequestExportRow[] = [];
  let cursor: RequestCursor | null = null;
  do {
    const page = store.requests.page(filter, Math.min(EXPORT_PAGE, EXPORT_MAX_ROWS - rows.length), cursor);
    for (const row of page.rows) {
      const log = row.logId === null ? undefined : store.requestLogs.get(row.logId);
      const view = requestRowView(row);
      if (log === undefined) {
        rows.push(view);
      } else {
        const { request_body, response_body, request_truncated, response_truncated, warnings } = logDetail(
          log,
        );
        rows.push({ ...view, request_body, response_body, request_truncated, response_truncated, warnings });
      }
    }
    cursor = page.next;
  } while (cursor !== null && rows.length < EXPORT_MAX_ROWS);
  return rows;
}
