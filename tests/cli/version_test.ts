/** `gateway --version` (the real process) and `GET /api/version` of a running gateway say the same. */
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { startTestGateway } from "../helpers/gateway.ts";

Deno.test("gateway --version prints what GET /api/version answers", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../main.ts", import.meta.url).pathname, "--version"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(output.code, 0, new TextDecoder().decode(output.stderr));
  const printed = new TextDecoder().decode(output.stdout).trim();
  assertMatch(printed, /^\d+\.\d+\.\d+/);
  const gw = await startTestGateway("server:\n  require_api_key: false\n");
  try {
    const response = await fetch(`${gw.url}/api/version`);
    assertEquals(response.status, 200);
    assertEquals(await response.json(), { version: printed });
  } finally {
    await gw.stop();
  }
});
