/**
 * The second pass of `deno task test`: the in-process gateway, e2e, dashboard, conformance and management
 * suites again with every test gateway on a throwaway PostgreSQL database (`GATEWAY_TEST_STORAGE=postgres`),
 * so both storage backends are held to the same behaviour on every run. Where the PostgreSQL binaries are
 * missing it prints one line saying so and passes (the first pass already ran on SQLite).
 * Usage: deno run -A scripts/test_on_postgres.ts [deno test args…]
 */
import { postgresUnavailable } from "../tests/helpers/postgres.ts";

const SUITES = ["tests/gateway", "tests/e2e", "tests/dashboard", "tests/conformance", "tests/management"];
/**
 * Not run again here: the loop-hold test starts its own `main.ts serve`, which stores on SQLite whatever
 * this pass sets, so a second run would test nothing new. `deno task test` runs it on its own, before the
 * parallel suite: it times the gateway's event loop, and neither the suite's other files beside it nor the
 * memory state the suite leaves behind may stall the gateway in ways the probe cannot subtract
 * (docs/limits.md).
 */
const IGNORED = ["--ignore=tests/gateway/loop_hold_test.ts"];

const reason = postgresUnavailable();
if (reason !== null) {
  console.log(`SKIPPED the PostgreSQL pass: ${reason}`);
  Deno.exit(0);
}
const { code } = await new Deno.Command(Deno.execPath(), {
  args: ["test", "-A", "--parallel", ...IGNORED, ...Deno.args, ...SUITES],
  env: { GATEWAY_TEST_STORAGE: "postgres" },
  stdout: "inherit",
  stderr: "inherit",
}).output();
Deno.exit(code);
