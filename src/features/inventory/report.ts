/** What a key submission (push, Add Keys, import) answers: one result per key and the counts. */

/** What became of one submitted key. */
export type IngestStatus = "registered" | "exists" | "updated" | "rejected" | "unidentified";

/** One result item (never the key itself). */
export interface IngestResult {
  readonly id?: string;
  readonly key_masked: string;
  readonly label: string;
  readonly provider_id?: string;
  readonly provider_display_name?: string;
  readonly status: IngestStatus;
  readonly error?: string;
}

/** Results of one submission with counts. */
export interface IngestReport {
  readonly summary: {
    registered: number;
    updated: number;
    existed: number;
    rejected: number;
    unidentified: number;
    total: number;
  };
  readonly results: readonly IngestResult[];
}

/** Counts the results by status. */
export function summarize(results: readonly IngestResult[]): IngestReport["summary"] {
  const count = (s: IngestStatus) => results.filter((r) => r.status === s).length;
  return {
    registered: count("registered"),
    updated: count("updated"),
    existed: count("exists"),
    rejected: count("rejected"),
    unidentified: count("unidentified"),
    total: results.length,
  };
}
