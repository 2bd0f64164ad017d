import type { ToolCard } from "../contract/tools.ts";
import type { ToolCardInput } from "./tool_card_input.ts";

/**
 * The four SDKs (and curl) pointed at the gateway. Each names the base URL form its SDK expects: the
 * OpenAI SDK takes `/v1`, the Anthropic SDK, @google/genai and ollama the host root.
 */
export function sdkCards({ origin, requireKey, model }: ToolCardInput): ToolCard[] {
  const v1 = `${origin}/v1`;
  const key = requireKey ? "sk-gateway-…" : "none";
  const keyEnv = (name: string) => (requireKey ? [{ name, value: key }] : []);
  const ask = '[{ role: "user", content: "Hello" }]';
  return [
    {
      id: "openai-sdk",
      title: "OpenAI SDK",
      protocol: "chat_completions",
      env: [{ name: "OPENAI_BASE_URL", value: v1 }, { name: "OPENAI_API_KEY", value: key }],
      snippet: {
        language: "typescript",
        path: null,
        content:
          `import OpenAI from "openai";\n\nconst client = new OpenAI({ baseURL: "${v1}", apiKey: "${key}" });\n` +
          `const answer = await client.chat.completions.create({\n  model: "${model}",\n  messages: ${ask},\n});\n` +
          `console.log(answer.choices[0].message.content);\n`,
      },
      notes: ["The base URL ends in /v1. client.responses.create works against the same base URL."],
    },
    {
      id: "anthropic-sdk",
      title: "Anthropic SDK",
      protocol: "messages",
      env: [{ name: "ANTHROPIC_BASE_URL", value: origin }, { name: "ANTHROPIC_API_KEY", value: key }],
      snippet: {
        language: "typescript",
        path: null,
        content: `import Anthropic from "@anthropic-ai/sdk";\n\n` +
          `const client = new Anthropic({ baseURL: "${origin}", apiKey: "${key}" });\n` +
          `const answer = await client.messages.create({\n  model: "${model}",\n  max_tokens: 1024,\n` +
          `  messages: ${ask},\n});\nconsole.log(answer.content);\n`,
      },
      notes: ["Host root, no /v1: the SDK appends /v1/messages itself."],
    },
    {
      id: "genai-sdk",
      title: "Google Gen AI SDK",
      protocol: "generate_content",
      env: [],
      snippet: {
        language: "typescript",
        path: null,
        content: `import { GoogleGenAI } from "@google/genai";\n\n` +
          `const ai = new GoogleGenAI({ apiKey: "${key}", httpOptions: { baseUrl: "${origin}" } });\n` +
          `const answer = await ai.models.generateContent({ model: "${model}", contents: "Hello" });\n` +
          `console.log(answer.text);\n`,
      },
      notes: [
        "Host root in httpOptions.baseUrl; the gateway model id goes in model as is: @google/genai calls " +
        `models/${model}.`,
        "@ai-sdk/google and @google/generative-ai (LangChain) read a slash in the id as a resource path and " +
        `call v1beta/${model} without models/; the gateway serves both forms, so give them the same id.`,
      ],
    },
    {
      id: "ollama-sdk",
      title: "Ollama SDK and clients",
      protocol: "local_runner",
      env: [{ name: "OLLAMA_HOST", value: origin }, ...keyEnv("OLLAMA_API_KEY")],
      snippet: {
        language: "typescript",
        path: null,
        content: `import { Ollama } from "ollama";\n\nconst ollama = new Ollama({\n  host: "${origin}",\n` +
          (requireKey ? `  headers: { Authorization: "Bearer ${key}" },\n` : "") +
          `});\nconst answer = await ollama.chat({ model: "${model}", messages: ${ask} });\n` +
          `console.log(answer.message.content);\n`,
      },
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
