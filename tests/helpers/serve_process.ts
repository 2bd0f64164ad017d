/**
 * `gateway serve` as a user starts it: a child `deno run -A …` process that prints where it listens. The
 * rest of its standard output is drained so that it never blocks on a full pipe.
 */

/** A running serve process; disposing of it stops it with SIGTERM and waits for it. */
export interface ServeProcess extends AsyncDisposable {
  readonly child: Deno.ChildProcess;
  /** Where it listens, as it printed it (`http://127.0.0.1:<port>`). */
  readonly url: string;
}

/** Runs `deno run -A <args>` (an entry point, `serve`, its options) and resolves once it listens. */
export async function startServeProcess(args: string[], env: Record<string, string>): Promise<ServeProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...args],
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let printed = "";
  let url: string | undefined;
  while (url === undefined) {
    const { value, done } = await stdout.read();
    if (done) throw new Error(`the gateway stopped before listening:\n${printed}`);
    printed += value;
    url = /gateway listening on (http:\/\/\S+)/.exec(printed)?.[1];
  }
  const drained = (async () => {
    for (let r = await stdout.read(); !r.done; r = await stdout.read());
  })();
  return {
    child,
    url,
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.status;
      await drained;
    },
  };
}
