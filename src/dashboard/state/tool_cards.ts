import type { ToolCard, ToolsSection } from "../contract/tools.ts";
import type { SectionInput } from "./common.ts";
import { sdkCards } from "./sdk_cards.ts";
import type { ToolCardInput } from "./tool_card_input.ts";

export type { ToolCard };

export type { ToolCardInput };

/** Base URLs, the key placeholder, an example model (the first enabled provider's) and the cards. */
export function toolsSection({ gateway, origin }: SectionInput): ToolsSection {
  const catalog = gateway.models();
  const requireKey = gateway.state.settings.server_require_api_key;
  const first = gateway.state.providers.find((p) => p.enabled && p.models.length > 0);
  const model = first ? `${first.prefix}/${first.models[0]}` : "<prefix>/<model>";
  return {
    base_url: origin,
    base_url_v1: `${origin}/v1`,
    require_api_key: requireKey,
    key_placeholder: requireKey ? "sk-gateway-…" : "none",
    example_model: model,
    models: catalog.map((entry) => entry.id),
    model_kinds: Object.fromEntries(catalog.map((entry) => [entry.id, entry.modelKind])),
    cards: toolCards({ origin, requireKey, model }),
  };
}

const json = (value: unknown) => JSON.stringify(value, null, 2) + "\n";

/**
 * Exact setup for the clients people point at the gateway, coding assistants first, then the SDKs.
 * Base URL forms follow each client: Claude Code, Gemini CLI and the Anthropic, Gen AI and Ollama SDKs
 * take the host root; OpenAI-style clients take `/v1`. Model names are gateway ids (`prefix/model` or a
 * combo), in the form each client passes them on (aider's LiteLLM wants `openai/` in front).
 */
export function toolCards(input: ToolCardInput): ToolCard[] {
  const { origin, requireKey, model } = input;
  const v1 = `${origin}/v1`;
  const key = requireKey ? "sk-gateway-…" : "none";
  const anyKey = key === "none" ? "any text" : key;
  return [
    {
      id: "claude-code",
      title: "Claude Code",
      protocol: "messages",
      env: [
        { name: "ANTHROPIC_BASE_URL", value: origin },
        { name: "ANTHROPIC_AUTH_TOKEN", value: key },
        { name: "ANTHROPIC_API_KEY", value: "" },
        { name: "ANTHROPIC_MODEL", value: model },
      ],
      snippet: {
        language: "json",
        path: "~/.claude/settings.json",
        content: json({
          env: {
            ANTHROPIC_BASE_URL: origin,
            ANTHROPIC_AUTH_TOKEN: key,
            ANTHROPIC_API_KEY: "",
            ANTHROPIC_MODEL: model,
            ANTHROPIC_DEFAULT_OPUS_MODEL: model,
            ANTHROPIC_DEFAULT_SONNET_MODEL: model,
            ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
          },
        }),
      },
      notes: [
        "Use the host root as base URL: Claude Code appends /v1/messages itself.",
        "Keep ANTHROPIC_API_KEY empty: when set it wins over ANTHROPIC_AUTH_TOKEN.",
        "Map the tier models to gateway ids, otherwise Claude Code sends bare claude-* names.",
      ],
    },
    {
      id: "codex-cli",
      title: "Codex CLI",
      protocol: "responses",
      env: [{ name: "GATEWAY_API_KEY", value: key }],
      snippet: {
        language: "toml",
        path: "~/.codex/config.toml",
        content:
          `model = "${model}"\nmodel_provider = "gateway"\n\n[model_providers.gateway]\nname = "OpenAI"\n` +
          `base_url = "${v1}"\nwire_api = "responses"\nenv_key = "GATEWAY_API_KEY"\n`,
      },
      notes: [
        'Codex speaks only the Responses API; the base URL must end in /v1. Run it with codex exec "…".',
        'name = "OpenAI" is what makes Codex compact long sessions remotely (through the gateway, for any ' +
        "upstream); under any other name it compacts locally.",
        "Optional: supports_websockets = true under [model_providers.gateway] uses the gateway's WebSocket " +
        "transport.",
      ],
    },
    {
      id: "gemini-cli",
      title: "Gemini CLI",
      protocol: "generate_content",
      env: [
        { name: "GOOGLE_GEMINI_BASE_URL", value: origin },
        { name: "GEMINI_API_KEY", value: key },
        { name: "GEMINI_MODEL", value: model },
        { name: "GEMINI_CLI_TRUST_WORKSPACE", value: "true" },
      ],
      snippet: {
        language: "json",
        path: "~/.gemini/settings.json",
        content: json({ security: { auth: { selectedType: "gemini-api-key" } } }),
      },
      notes: [
        'The settings file selects API-key auth; without it gemini -p stops with "Invalid auth method selected".',
        "GEMINI_CLI_TRUST_WORKSPACE=true (or --skip-trust) lets non-interactive runs start in any folder.",
        "Export the variables in your shell: Gemini CLI ignores .env files in folders it does not trust.",
        "Host root, no /v1. Remote gateways need HTTPS; localhost works over HTTP.",
        `GEMINI_MODEL takes the gateway id as is (${model}); Gemini CLI calls models/${model}.`,
      ],
    },
    {
      id: "qwen-code",
      title: "Qwen Code",
      protocol: "chat_completions",
      env: [{ name: "GATEWAY_API_KEY", value: key }],
      snippet: {
        language: "json",
        path: "~/.qwen/settings.json",
        content: json({
          modelProviders: {
            openai: [{ id: model, name: `${model} (OpenAI mode)`, baseUrl: v1, envKey: "GATEWAY_API_KEY" }],
            anthropic: [{
              id: model,
              name: `${model} (Anthropic mode)`,
              baseUrl: origin,
              envKey: "GATEWAY_API_KEY",
            }],
            gemini: [{
              id: model,
              name: `${model} (Gemini mode)`,
              baseUrl: origin,
              envKey: "GATEWAY_API_KEY",
            }],
          },
          security: { auth: { selectedType: "openai" } },
          model: { name: model },
        }),
      },
      notes: [
        "All three modes go through the gateway: openai (chat completions, /v1), anthropic (messages, host " +
        "root) and gemini (generate-content, host root).",
        'Switch with /model, or set security.auth.selectedType to "anthropic" or "gemini" for qwen -p runs.',
      ],
    },
    {
      id: "opencode",
      title: "OpenCode",
      protocol: "chat_completions",
      env: requireKey ? [{ name: "GATEWAY_API_KEY", value: key }] : [],
      snippet: {
        language: "json",
        path: "~/.config/opencode/opencode.json",
        content: json({
          $schema: "https://opencode.ai/config.json",
          provider: {
            gateway: {
              npm: "@ai-sdk/openai-compatible",
              name: "Gateway",
              options: { baseURL: v1, apiKey: requireKey ? "{env:GATEWAY_API_KEY}" : "none" },
              models: { [model]: { name: model } },
            },
          },
          model: `gateway/${model}`,
        }),
      },
      notes: [
        "OpenCode names models <provider>/<model>: gateway/ in front of the gateway id. List them explicitly.",
      ],
    },
    {
      id: "aider",
      title: "aider",
      protocol: "chat_completions",
      env: [{ name: "OPENAI_API_BASE", value: v1 }, { name: "OPENAI_API_KEY", value: key }],
      snippet: {
        language: "yaml",
        path: "~/.aider.conf.yml",
        content: `openai-api-base: ${v1}\nopenai-api-key: ${key}\nmodel: openai/${model}\n`,
      },
      notes: [
        `aider reaches OpenAI-compatible servers through LiteLLM: openai/${model} selects that route and the ` +
        `gateway receives ${model}.`,
      ],
    },
    {
      id: "cline",
      title: "Cline",
      protocol: "chat_completions",
      env: [],
      snippet: {
        language: "text",
        path: "Cline → Settings → API Configuration",
        content: `API Provider: OpenAI Compatible\nBase URL: ${v1}\nAPI Key: ${anyKey}\nModel ID: ${model}\n`,
      },
      notes: ["Cline needs a concrete model id (a gateway id or a combo name)."],
    },
    {
      id: "continue",
      title: "Continue",
      protocol: "chat_completions",
      env: [],
      snippet: {
        language: "yaml",
        path: "~/.continue/config.yaml",
        content:
          `name: Gateway\nversion: 0.0.1\nschema: v1\nmodels:\n  - name: ${model}\n    provider: openai\n` +
          `    model: ${model}\n    apiBase: ${v1}\n    apiKey: ${anyKey}\n    roles:\n      - chat\n      - edit\n` +
          `      - apply\n`,
      },
      notes: [
        "provider: openai with apiBase sends chat completions to the gateway; model is the gateway id.",
        "Add one entry per model or combo you want in Continue's model menu.",
      ],
    },
    {
      id: "cursor",
      title: "Cursor",
      protocol: "chat_completions",
      env: [],
      snippet: {
        language: "text",
        path: "Cursor → Settings → Models",
        content: `OpenAI API Key: ${anyKey}\nOverride OpenAI Base URL: ${v1}\nCustom model: ${model}\n`,
      },
      notes: [
        "Cursor calls from its own servers: the gateway must be reachable on a public HTTPS URL (tunnel).",
        "A custom model name that matches a built-in Cursor model is routed to Cursor instead.",
      ],
    },
    ...sdkCards(input),
  ];
}
