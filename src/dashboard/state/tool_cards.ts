import type { ToolCard } from "../contract/mod.ts";

export type { ToolCard };

/** Inputs of the cards: the server's origin, whether keys are required, and a model to show. */
export interface ToolCardInput {
  readonly origin: string;
  readonly requireKey: boolean;
  readonly model: string;
}

/**
 * Exact setup for the clients people point at the gateway. Base URL forms follow each client: Claude
 * Code, Gemini CLI and Ollama tools take the host root; OpenAI-style clients take `/v1`.
 */
export function toolCards({ origin, requireKey, model }: ToolCardInput): ToolCard[] {
  const v1 = `${origin}/v1`;
  const key = requireKey ? "sk-gateway-…" : "none";
  const keyEnv = (name: string) => (requireKey ? [{ name, value: "sk-gateway-…" }] : []);
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
        content: JSON.stringify(
          {
            env: {
              ANTHROPIC_BASE_URL: origin,
              ANTHROPIC_AUTH_TOKEN: key,
              ANTHROPIC_API_KEY: "",
              ANTHROPIC_MODEL: model,
              ANTHROPIC_DEFAULT_SONNET_MODEL: model,
              ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
            },
          },
          null,
          2,
        ),
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
          `model = "${model}"\nmodel_provider = "gateway"\n\n[model_providers.gateway]\nname = "Gateway"\n` +
          `base_url = "${v1}"\nwire_api = "responses"\nenv_key = "GATEWAY_API_KEY"\n`,
      },
      notes: ["Codex speaks only the Responses API; the base URL must end in /v1."],
    },
    {
      id: "cursor",
      title: "Cursor",
      protocol: "chat_completions",
      env: [],
      snippet: null,
      notes: [
        `Settings → Models: set the OpenAI API key to ${
          key === "none" ? "any text" : key
        } and "Override OpenAI Base URL" to ${v1}.`,
        `Add the model name ${model} as a custom model.`,
        "Cursor calls from its own servers: the gateway must be reachable on a public HTTPS URL (tunnel).",
      ],
    },
    {
      id: "cline",
      title: "Cline",
      protocol: "chat_completions",
      env: [],
      snippet: null,
      notes: [
        `API Provider "OpenAI Compatible", Base URL ${v1}, API key ${key === "none" ? "any text" : key}.`,
        `Model ID ${model} (a concrete id; Cline needs one).`,
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
      ],
      snippet: {
        language: "shell",
        path: "~/.gemini/.env",
        content: `GOOGLE_GEMINI_BASE_URL=${origin}\nGEMINI_API_KEY=${key}\nGEMINI_MODEL=${model}\n`,
      },
      notes: ["Host root, no /v1. Remote gateways need HTTPS; localhost works over HTTP."],
    },
    {
      id: "opencode",
      title: "OpenCode",
      protocol: "chat_completions",
      env: keyEnv("GATEWAY_API_KEY"),
      snippet: {
        language: "json",
        path: "~/.config/opencode/opencode.json",
        content: JSON.stringify(
          {
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
          },
          null,
          2,
        ),
      },
      notes: ["List models explicitly; OpenCode does not always discover them."],
    },
    {
      id: "ollama",
      title: "Ollama clients",
      protocol: "local_runner",
      env: [{ name: "OLLAMA_HOST", value: origin }, ...keyEnv("OLLAMA_API_KEY")],
      snippet: null,
      notes: ["Tools that speak the Ollama API (/api/chat, /api/tags) use the host root."],
    },
    {
      id: "curl",
      title: "curl",
      protocol: "chat_completions",
      env: [],
      snippet: {
        language: "shell",
        path: null,
        content: `curl ${v1}/chat/completions \\\n  -H "Authorization: Bearer ${key}" \\\n` +
          `  -H "Content-Type: application/json" \\\n  -d '{"model": "${model}", "messages": [{"role": "user", "content": "Hello"}]}'\n`,
      },
      notes: [],
    },
  ];
}
