import type { ProviderConfig } from "../config/mod.ts";
import { hasStoredCredential } from "../executors/oauth/mod.ts";
import { parseInput } from "../features/input.ts";
import { azureHints, azureSettings, withCallHints } from "../features/providers/service.ts";
import { fetchUpstreamModels, probeProvider } from "../features/providers/probe.ts";
import { createSchema, updateSchema } from "../features/providers/input.ts";
import { GatewayError } from "../model/mod.ts";
import { Redactor } from "../security/redact.ts";
import { parseCommandArgs, type ParsedArgs, stringFlag } from "./args.ts";
import { withManagement } from "./context.ts";
import { type CliIo, EXIT_FAILURE, EXIT_OK, UsageError } from "./io.ts";

/** Flags of `providers add` and `providers update`. */
const PROVIDER_FLAGS = {
  prefix: { type: "string" },
  type: { type: "string" },
  "base-url": { type: "string" },
  "api-key": { type: "string" },
  "api-key-env": { type: "string" },
  "api-key-stdin": { type: "boolean" },
  models: { type: "string" },
  enable: { type: "boolean" },
  disable: { type: "boolean" },
  region: { type: "string" },
  project: { type: "string" },
  "azure-api-version": { type: "string" },
  "azure-deployments": { type: "string" },
  json: { type: "boolean" },
} as const;

/** `gateway providers list`: id, prefix, type, base URL, enabled and models; never a credential. */
export function listProviders(args: readonly string[], io: CliIo): number {
  const { values } = parseCommandArgs(args, { json: { type: "boolean" } }, "providers list");
  return withManagement(stringFlag(values, "config"), io, (manage) => {
    const rows = manage.providers.list().map(providerLine);
    if (values.json) io.out(JSON.stringify(rows));
    else if (rows.length === 0) {
      io.out("No providers. Add one with: gateway providers add <id> --prefix … --type …");
    } else {
      for (const p of rows) {
        io.out(
          `${p.id.padEnd(16)} ${p.prefix.padEnd(12)} ${p.api_type.padEnd(16)} ${
            p.enabled ? "enabled " : "disabled"
          } ${p.base_url}  models: ${p.models.join(", ") || "(none)"}`,
        );
      }
    }
    return EXIT_OK;
  });
}

/** `gateway providers add <id> --prefix <p> --type <api_type> --base-url <url> [--api-key…] [--models a,b]`. */
export async function addProvider(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, PROVIDER_FLAGS, "providers add");
  const id = onlyId(positionals, "providers add");
  const apiKey = await keyFlag(values, io, "providers add");
  const input = asFlags("providers add", () =>
    parseInput(createSchema, {
      id,
      prefix: stringFlag(values, "prefix"),
      api_type: stringFlag(values, "type"),
      base_url: stringFlag(values, "base-url"),
      api_key: apiKey ?? "",
      models: stringFlag(values, "models") ?? [],
      enabled: enabledFlag(values, "providers add") ?? true,
      region: stringFlag(values, "region"),
      project: stringFlag(values, "project"),
      ...azureFlags(values),
    }));
  return withManagement(stringFlag(values, "config"), io, (manage) => {
    const created = manage.providers.create({
      id: input.id,
      prefix: input.prefix,
      apiType: input.api_type,
      baseUrl: input.base_url,
      apiKey: input.api_key,
      models: input.models,
      enabled: input.enabled,
      oauth: withCallHints(input.api_type, undefined, input),
      azure: azureSettings(input.api_type, undefined, azureHints(input)),
    });
    report(
      values,
      io,
      created,
      `Added provider ${created.id}: ${created.prefix}/<model> → ${created.baseUrl}`,
    );
    return EXIT_OK;
  });
}

/** `gateway providers update <id> [--prefix] [--type] [--base-url] [--api-key…] [--models] [--enable|--disable]`. */
export async function updateProvider(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, PROVIDER_FLAGS, "providers update");
  const id = onlyId(positionals, "providers update");
  const apiKey = await keyFlag(values, io, "providers update");
  const input = asFlags("providers update", () =>
    parseInput(updateSchema, {
      prefix: stringFlag(values, "prefix"),
      api_type: stringFlag(values, "type"),
      base_url: stringFlag(values, "base-url"),
      api_key: apiKey,
      models: stringFlag(values, "models"),
      enabled: enabledFlag(values, "providers update"),
      region: stringFlag(values, "region"),
      project: stringFlag(values, "project"),
      ...azureFlags(values),
    }));
  if (Object.values(input).every((v) => v === undefined)) {
    throw new UsageError(
      "providers update: nothing to change (give --prefix, --base-url, --api-key, --models, …)",
    );
  }
  return withManagement(stringFlag(values, "config"), io, (manage) => {
    const current = manage.providers.get(id);
    const hinted = input.region !== undefined || input.project !== undefined;
    const updated = manage.providers.update(id, {
      prefix: input.prefix,
      apiType: input.api_type,
      baseUrl: input.base_url,
      apiKey: input.api_key,
      models: input.models,
      enabled: input.enabled,
      oauth: hinted ? withCallHints(input.api_type ?? current.apiType, current.oauth, input) : undefined,
      azure: azureSettings(input.api_type ?? current.apiType, current.azure, azureHints(input)),
    });
    report(values, io, updated, `Updated provider ${updated.id}`);
    return EXIT_OK;
  });
}

/** `gateway providers remove <id>`. */
export function removeProvider(args: readonly string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs(args, { json: { type: "boolean" } }, "providers remove");
  const id = onlyId(positionals, "providers remove");
  return withManagement(stringFlag(values, "config"), io, (manage) => {
    manage.providers.delete(id);
    io.out(values.json ? JSON.stringify({ deleted: id }) : `Removed provider ${id}`);
    return EXIT_OK;
  });
}

/**
 * `gateway providers test <id> [--model m]`: one small request to the model (the first listed when none is
 * given), or, for a provider that lists no model, its model list; the answer's status and time.
 */
export async function testProvider(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    { model: { type: "string" }, json: { type: "boolean" } },
    "providers test",
  );
  const id = onlyId(positionals, "providers test");
  const provider = withManagement(stringFlag(values, "config"), io, (manage) => manage.providers.get(id));
  if (hasStoredCredential(provider.apiType)) {
    throw new UsageError(
      `providers test: ${id} is a subscription provider (${provider.apiType}); test it from the dashboard`,
    );
  }
  const fetcher = (io.fetch ?? fetch) as typeof fetch;
  // Upstream error text can repeat the key it was sent.
  const redactor = new Redactor({ secrets: [provider.apiKey] });
  const model = stringFlag(values, "model") ?? provider.models[0];
  const result = model === undefined
    ? await listedModels(provider, fetcher, io)
    : await probeProvider(provider, model, io.now, fetcher);
  const message = redactor.redact(result.message);
  if (values.json) io.out(JSON.stringify({ ...result, message }));
  else {
    io.out(
      `${result.ok ? "OK" : "FAILED"} ${id} ${result.model || "(model list)"}: ${
        result.status || "no answer"
      } in ${result.latency_ms} ms${message ? `: ${message}` : ""}`,
    );
  }
  return result.ok ? EXIT_OK : EXIT_FAILURE;
}

/** A provider without models is tested by asking for its model list (no model name is needed for that). */
async function listedModels(provider: ProviderConfig, fetcher: typeof fetch, io: CliIo) {
  const started = io.now();
  const listed = await fetchUpstreamModels(provider, fetcher);
  const latency = io.now() - started;
  return listed.ok
    ? {
      ok: true,
      status: 200,
      latency_ms: latency,
      message: `${listed.models.length} models at ${listed.url}`,
      model: "",
    }
    : { ok: false, status: 0, latency_ms: latency, message: listed.message, model: "" };
}

/** The flag that sets each input field, so a refusal names what the user typed. */
const FLAG_OF: Readonly<Record<string, string>> = {
  id: "<id>",
  prefix: "--prefix",
  api_type: "--type",
  base_url: "--base-url",
  api_key: "--api-key",
  models: "--models",
  region: "--region",
  project: "--project",
  azure_api_version: "--azure-api-version",
  azure_deployments: "--azure-deployments",
};

/** The Azure flags as input fields (absent flags stay absent: an update keeps the stored value). */
function azureFlags(values: ParsedArgs["values"]) {
  return {
    azure_api_version: stringFlag(values, "azure-api-version"),
    azure_deployments: stringFlag(values, "azure-deployments"),
  };
}

/** Runs an input check; a field error comes back as a usage error naming the flag. */
function asFlags<T>(command: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    const field = error instanceof GatewayError ? error.field?.split(".")[0] : undefined;
    if (field === undefined || !(error instanceof Error)) throw error;
    const message = error.message.slice(error.message.indexOf(": ") + 2);
    throw new UsageError(`${command}: ${FLAG_OF[field] ?? field} ${message}`);
  }
}

function providerLine(p: ProviderConfig) {
  return {
    id: p.id,
    prefix: p.prefix,
    api_type: p.apiType,
    base_url: p.baseUrl,
    enabled: p.enabled,
    models: [...p.models],
    ...(p.azure
      ? { azure: { api_version: p.azure.apiVersion, deployments: { ...p.azure.deployments } } }
      : {}),
  };
}

function report(values: ParsedArgs["values"], io: CliIo, provider: ProviderConfig, text: string): void {
  io.out(values.json ? JSON.stringify(providerLine(provider)) : text);
}

function onlyId(positionals: readonly string[], command: string): string {
  const [id, extra] = positionals;
  if (id === undefined) throw new UsageError(`${command}: missing <id>`);
  if (extra !== undefined) throw new UsageError(`${command}: unexpected argument "${extra}"`);
  return id;
}

function enabledFlag(values: ParsedArgs["values"], command: string): boolean | undefined {
  if (values.enable && values.disable) throw new UsageError(`${command}: --enable and --disable conflict`);
  return values.enable ? true : values.disable ? false : undefined;
}

/**
 * The credential from `--api-key`, `--api-key-env NAME` (kept out of the shell history and `ps`) or
 * `--api-key-stdin` (the first line of standard input); at most one of them.
 */
async function keyFlag(
  values: ParsedArgs["values"],
  io: CliIo,
  command: string,
): Promise<string | undefined> {
  const given = ["api-key", "api-key-env", "api-key-stdin"].filter((name) => values[name] !== undefined);
  if (given.length > 1) {
    throw new UsageError(`${command}: give one of --api-key, --api-key-env, --api-key-stdin`);
  }
  const env = stringFlag(values, "api-key-env");
  if (env !== undefined) {
    const value = io.env(env);
    if (value === undefined || value === "") {
      throw new UsageError(`${command}: the variable ${env} is not set`);
    }
    return value;
  }
  if (values["api-key-stdin"]) {
    const line = io.readLine ? await io.readLine() : null;
    if (line === null || line.trim() === "") throw new UsageError(`${command}: no key on standard input`);
    return line.trim();
  }
  return stringFlag(values, "api-key");
}
