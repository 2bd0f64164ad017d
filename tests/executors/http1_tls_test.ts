import { assertEquals, assertMatch } from "../helpers/assert.ts";

async function probe(env: Record<string, string>): Promise<string[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../helpers/tls_upstream_probe.ts", import.meta.url).pathname],
    // Only what Deno needs to run, so a DENO_CERT or proxy of the caller cannot leak in.
    env: { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "", NO_COLOR: "1", ...env },
    clearEnv: true,
  }).output();
  return new TextDecoder().decode(output.stdout).trim().split("\n");
}

Deno.test("the HTTP/1.1 client speaks TLS with hostname checks, trusting the roots Deno is given", async () => {
  const ca = new URL("../fixtures/tls/ca.pem", import.meta.url).pathname;
  const [first, second, idle] = await probe({ DENO_CERT: ca });
  assertMatch(first, /^200 localhost:\d+ hello$/);
  assertEquals(second, first);
  // One connection, kept for reuse after both calls.
  assertEquals(idle, "idle 1");
  const [untrusted] = await probe({});
  assertMatch(untrusted, /^error TLS with localhost:\d+ failed: .*certificate/);
});
