/**
 * Ids linking a request's index row to its captured bodies, unique across the processes sharing a database:
 * the time, a tag random per process, and a counter. Time first, so new ids land at the end of the uid
 * index: random UUIDs scattered inserts over the whole B-tree and made an index row cost 28 µs instead of 11.
 */
export function requestUids(now: () => number, processTag: string): () => string {
  let seq = 0;
  return () => `${now().toString(36)}-${processTag}-${(seq++).toString(36)}`;
}
