/**
 * Waits until a benchmark server answers a POST of `body` (any status counts: it is listening), polling
 * every 100 ms for up to 15 s; shared by the benchmark scripts that start servers.
 */
export async function waitReady(url: string, body: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    try {
      await (await fetch(url, { method: "POST", body, headers: { "content-type": "application/json" } }))
        .body?.cancel();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`server at ${url} did not start`);
}
