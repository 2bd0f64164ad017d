import { Management } from "../features/mod.ts";
import { GatewayError } from "../model/mod.ts";
import {
  providerSigninFacts,
  type SigninFlow,
  SigninService,
  type SigninView,
} from "../features/signin/mod.ts";
import { seedFromConfig } from "../storage/mod.ts";
import { parseCommandArgs, stringFlag } from "./args.ts";
import { cliActor, configForCommand, openStore } from "./context.ts";
import { type CliIo, EXIT_FAILURE, EXIT_OK, UsageError } from "./io.ts";
import {
  addProvider,
  listProviders,
  removeProvider,
  testProvider,
  updateProvider,
} from "./provider_admin.ts";

/** Help text of `gateway providers`. */
export const PROVIDERS_HELP = `Usage:
  gateway providers list [--json]
  gateway providers add <id> --prefix <prefix> --type <api_type> --base-url <url>
      [--api-key <key> | --api-key-env <VAR> | --api-key-stdin] [--models a,b] [--disable] [--json]
      [--azure-api-version v1|<date>] [--azure-deployments model=deployment,…]
  gateway providers update <id> [--prefix …] [--type …] [--base-url …] [--api-key… ] [--models a,b]
      [--enable | --disable] [--azure-api-version …] [--azure-deployments …] [--json]
  gateway providers remove <id> [--json]
  gateway providers test <id> [--model <model>] [--json]
  gateway providers connect <id> [--flow device|pkce]
Every subcommand takes --config <file>.

list, add, update and remove change the providers the dashboard shows, through the same checks; a running
gateway picks a change up within seconds. --api-key-env and --api-key-stdin keep the key out of the shell
history. test sends one small request to the model (the first one listed when --model is not given), or asks
for the model list when the provider lists none; it exits 1 when the upstream did not answer.

connect signs a subscription provider in and stores its credential in the database (sealed), the same way the
dashboard's Connect button does; a running gateway picks it up within seconds.

  device  prints a code and a link: open the link on any device, enter the code, and wait here.
  pkce    prints the provider's sign-in page: open it in a browser, sign in, then paste the address the
          browser ends on (or the code it shows) here. Works on a headless server.

Without --flow the provider kind's usual flow is used (GitHub Copilot, Kiro: device; Codex, Claude: pkce).`;

/** `gateway providers …` */
export async function providersCommand(args: readonly string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== "connect" && (rest.includes("--help") || rest.includes("-h"))) {
    io.out(PROVIDERS_HELP);
    return EXIT_OK;
  }
  switch (sub) {
    case "connect":
      return await connect(rest, io);
    case "list":
      return listProviders(rest, io);
    case "add":
      return await addProvider(rest, io);
    case "update":
      return await updateProvider(rest, io);
    case "remove":
      return removeProvider(rest, io);
    case "test":
      return await testProvider(rest, io);
    case undefined:
    case "--help":
    case "-h":
      io.out(PROVIDERS_HELP);
      return sub === undefined ? 2 : EXIT_OK;
    default:
      throw new UsageError(
        `providers: unknown subcommand "${sub}" (list, add, update, remove, test, connect)`,
      );
  }
}

async function connect(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { flow: { type: "string" } }, "providers connect");
  if (values.help) {
    io.out(PROVIDERS_HELP);
    return EXIT_OK;
  }
  const [id, extra] = positionals;
  if (id === undefined) throw new UsageError("providers connect: missing <id>");
  if (extra !== undefined) throw new UsageError(`providers connect: unexpected argument "${extra}"`);
  const flow = stringFlag(values, "flow");
  if (flow !== undefined && flow !== "device" && flow !== "pkce") {
    throw new UsageError("providers connect: --flow must be device or pkce");
  }
  const config = configForCommand(stringFlag(values, "config"), io);
  const store = openStore(config, io);
  let signin: SigninService | undefined;
  try {
    // A fresh install has not served yet: take the providers from the config as serve would.
    seedFromConfig(store.db, config, store.box, io.now());
    // No reload: a running gateway is another process and notices the commit by polling the database.
    const manage = new Management({ store, config, now: io.now, env: io.env, reload: () => {} });
    signin = new SigninService({
      fetch: io.fetch ?? fetch,
      now: io.now,
      random: (n) => crypto.getRandomValues(new Uint8Array(n)),
      provider: (providerId) => manage.providers.get(providerId),
      facts: providerSigninFacts,
      // The table running gateways share: a dashboard sign-in for the provider replaces this one, and
      // the other way round.
      sessions: store.signins,
      save: (providerId, credential) => {
        const pending = manage.audit.begin();
        manage.providers.update(providerId, { apiKey: JSON.stringify(credential) });
        manage.audit.end(pending, cliActor(io), {
          action: "providers.connect",
          target: `providers:${providerId}`,
        });
      },
    });
    const owner = "cli";
    const started = await signin.start(id, owner, flow as SigninFlow | undefined);
    const ended = started.device
      ? await waitForDevice(signin, started, io)
      : await pastePkce(signin, started, io);
    return report(ended, io);
  } finally {
    // A device sign-in still polled here (an error while waiting) is cancelled before the store closes.
    await signin?.close();
    store.close();
  }
}

async function waitForDevice(signin: SigninService, view: SigninView, io: CliIo): Promise<SigninView> {
  const device = view.device!;
  io.out(`Open ${device.verification_uri_complete ?? device.verification_uri} and enter the code:`);
  io.out("");
  io.out(`    ${device.user_code}`);
  io.out("");
  io.out(`Waiting for you to approve it (the code expires at ${view.expires_at}; Ctrl-C to give up)…`);
  return await signin.settled(view.id, "cli");
}

async function pastePkce(signin: SigninService, view: SigninView, io: CliIo): Promise<SigninView> {
  const pkce = view.pkce!;
  io.out("Open this address in a browser and sign in:");
  io.out("");
  io.out(`    ${pkce.authorize_url}`);
  io.out("");
  io.out(`The browser then goes to ${pkce.redirect_uri}… (the page may not load: that is expected).`);
  io.out("Paste that whole address (or the code the page shows) here and press Enter:");
  while (true) {
    const line = io.readLine ? await io.readLine() : null;
    if (line === null) {
      signin.cancel(view.id, "cli");
      throw new UsageError("providers connect: no redirect address on standard input");
    }
    if (line.trim() === "") continue;
    try {
      return await signin.submit(view.id, "cli", line);
    } catch (error) {
      // A paste that does not read (wrong state, no code) leaves the sign-in open: ask again.
      if (!(error instanceof GatewayError) || error.status !== 400) throw error;
      io.err(`gateway: ${error.message}`);
      io.out("Paste the address again (or press Ctrl-D to give up):");
    }
  }
}

function report(view: SigninView, io: CliIo): number {
  if (view.status === "succeeded") {
    io.out(`Connected ${view.provider_id}: the credential is stored (sealed) in the database.`);
    return EXIT_OK;
  }
  io.err(`gateway: sign-in ${view.status}${view.message ? `: ${view.message}` : ""}`);
  return EXIT_FAILURE;
}
