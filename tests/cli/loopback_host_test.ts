import { assertEquals } from "../helpers/assert.ts";
import { isLoopbackHost } from "../../src/cli/serve.ts";

Deno.test("isLoopbackHost() accepts 127/8, ::1 and localhost, and refuses every other listen host", () => {
  for (const host of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST"]) {
    assertEquals(isLoopbackHost(host), true, host);
  }
  for (const host of ["0.0.0.0", "::", "[::]", "192.168.1.10", "10.0.0.1", "example.com", "128.0.0.1", ""]) {
    assertEquals(isLoopbackHost(host), false, host);
  }
});
