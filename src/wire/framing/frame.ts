/**
 * One framed message from a stream: an SSE event (`event` name and joined `data` lines) or, for
 * NDJSON, one line in `data`.
 */
export interface Frame {
  readonly event?: string;
  readonly data: string;
  /**
   * The frame's exact bytes as an SSE event (`data: …` and its blank line), when the gateway forwards the
   * upstream's own bytes instead of text: the HTTP edge writes them as they are. Always the same text as
   * `sseEvent(data, event)`; frames without it are written from `data`.
   */
  readonly wire?: Uint8Array;
}
