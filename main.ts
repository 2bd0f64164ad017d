/** Composition root: the `gateway` CLI. `serve` loads config, opens the database and serves the app. */
import { runCli } from "./src/cli/mod.ts";
import { stdinLineReader } from "./src/cli/stdin.ts";

if (import.meta.main) {
  const code = await runCli(Deno.args, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    env: (name) => Deno.env.get(name),
    now: Date.now,
    readLine: stdinLineReader(),
  });
  Deno.exit(code);
}
