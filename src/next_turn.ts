/**
 * Resolves on a later turn of the event loop, after pending network I/O has been served. A resolved
 * promise would not do (microtasks run before any I/O), nor a MessageChannel message: Deno delivers it
 * without handing control to the runtime's network tasks, and health checks starved behind a count
 * paced that way (measured). A zero timer does; it costs about 2 ms of idle time, spent on other work
 * when there is any.
 */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(resolve, 0));
}
