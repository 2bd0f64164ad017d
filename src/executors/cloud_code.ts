/**
 * Google Cloud Code `v1internal` (api_type `cli_oauth` = Gemini CLI, `cli_oauth_alt` = Antigravity): one
 * executor, two identities. The body is the generate-content codec's inside an envelope; answers are
 * unwrapped from `{response: …}` before that codec reads them.
 */
import type { NeutralResponse, StreamEvent } from "../model/mod.ts";
import {
  type CloudCodeClient,
  codecFor,
  unwrapCloudCodeFrames,
  unwrapCloudCodeResponse,
  type UpstreamCodec,
  wrapCloudCodeRequest,
} from "../wire/mod.ts";
import type { Frame } from "../wire/framing/mod.ts";
import { chainSteps, StreamStage } from "../wire/shared/mod.ts";
import { type CallShaper, extraString, type ShapedCall, type ShapeInput } from "./call_shape.ts";

/** Default API base of both identities. */
export const CLOUD_CODE_BASE_URL = "https://cloudcode-pa.googleapis.com";

/**
 * Antigravity's hosts in the order its own client tries them: the daily hosts first, the production host
 * last. Used when the provider keeps the default base URL; another base URL (a proxy, a test server) is
 * the one place asked.
 */
export const ANTIGRAVITY_HOSTS = [
  "https://daily-cloudcode-pa.googleapis.com",
  "https://daily-cloudcode-pa.sandbox.googleapis.com",
  CLOUD_CODE_BASE_URL,
] as const;

/** The hosts an identity's inference calls go to, in order. */
export function cloudCodeHosts(client: CloudCodeClient, baseUrl: string): readonly string[] {
  return client === "antigravity" && baseUrl === CLOUD_CODE_BASE_URL ? ANTIGRAVITY_HOSTS : [baseUrl];
}

const generate = codecFor("generate_content");

/** The generate-content codec with the `{response}` wrapper removed from every answer. */
export const cloudCodeCodec: UpstreamCodec = {
  format: "generate_content",
  framing: "sse",
  encodeRequest: (request, model) => generate.encodeRequest(request, model),
  decodeResponse: (body): NeutralResponse => generate.decodeResponse(unwrapCloudCodeResponse(body)),
  decodeStream: () =>
    new StreamStage<Frame, StreamEvent>(
      chainSteps(unwrapCloudCodeFrames().steps, generate.decodeStream().steps),
    ),
};

/** The project a credential was onboarded to (stored by project discovery, or by an imported blob). */
export function cloudCodeProject(extra: Readonly<Record<string, unknown>>): string | undefined {
  return extraString(extra, "project_id", "projectId", "project", "cloudaicompanionProject");
}

/** `{base}/v1internal:<method>` (`?alt=sse` for streams). */
export function cloudCodeUrl(baseUrl: string, method: string, stream = false): string {
  return `${baseUrl}/v1internal:${method}${stream ? "?alt=sse" : ""}`;
}

/** Headers of every Cloud Code call: the bearer token and the identity's user agent. */
export function cloudCodeHeaders(
  client: CloudCodeClient,
  accessToken: string,
  model = "",
): Record<string, string> {
  return {
    authorization: `Bearer ${accessToken}`,
    "user-agent": client === "antigravity" ? "antigravity/1.0 gateway" : `GeminiCLI/1.0/${model} (gateway)`,
  };
}

function shaper(client: CloudCodeClient): CallShaper {
  return {
    shape(input: ShapeInput): readonly ShapedCall[] {
      const method = input.stream ? "streamGenerateContent" : "generateContent";
      const id = input.newId();
      const envelope = wrapCloudCodeRequest(input.body, {
        client,
        model: input.model,
        project: cloudCodeProject(input.extra),
        requestId: client === "antigravity" ? `agent-${id}` : id,
        sessionId: extraString(input.extra, "session_id") ?? id,
      });
      const headers = cloudCodeHeaders(client, input.accessToken, input.model);
      return cloudCodeHosts(client, input.baseUrl).map((host) => ({
        url: cloudCodeUrl(host, method, input.stream),
        headers,
        json: envelope,
      }));
    },
    // Each host has its own capacity: a 429 or a server error there moves on to the next host (the last
    // host's answer stands, and is what cools the account). A 401/403 is the token's, the same everywhere.
    failover: (status) => status === 429 || status >= 500,
  };
}

/**
 * The token-counting call: `v1internal:countTokens` takes the envelope without a project (the upstream
 * refuses one there), so counting works before the project is known.
 */
export function cloudCodeCountCall(
  apiType: string,
  baseUrl: string,
  accessToken: string,
  body: Record<string, unknown>,
  model: string,
  requestId: string,
): ShapedCall {
  const client: CloudCodeClient = apiType === "cli_oauth_alt" ? "antigravity" : "gemini-cli";
  const envelope = wrapCloudCodeRequest(
    { contents: body.contents ?? [] },
    { client, model, requestId: client === "antigravity" ? `agent-${requestId}` : requestId },
  );
  return {
    url: cloudCodeUrl(baseUrl.replace(/\/+$/, ""), "countTokens"),
    headers: { "content-type": "application/json", ...cloudCodeHeaders(client, accessToken, model) },
    json: envelope,
  };
}

/** The Gemini CLI identity (`cli_oauth`). */
export const GEMINI_CLI_SHAPER = shaper("gemini-cli");
/** The Antigravity identity (`cli_oauth_alt`). */
export const ANTIGRAVITY_SHAPER = shaper("antigravity");
