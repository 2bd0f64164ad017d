/**
 * One framed message from a stream: an SSE event (`event` name and joined `data` lines) or, for
 * NDJSON, one line in `data`.
 */
export interface Frame {
  readonly event?: string;
  readonly data: string;
}
