/**
 * The cloud assistant (api_type `cloud_assistant_oauth`: Kiro / AWS CodeWhisperer). The body is the
 * conversation state; each host wants its own origin/target pair, so the body is finished per host, and
 * the hosts are tried in order: a 429 (another quota pool), a 403 (a pair the host refuses) or a 5xx moves
 * on to the next one.
 */
import { asUuid, type CallShaper, extraString, type ShapedCall, type ShapeInput } from "./call_shape.ts";

/** The current runtime host; tried first for social and Builder ID sign-ins. */
export const KIRO_RUNTIME_URL = "https://runtime.us-east-1.kiro.dev";

/** One host with the origin and target it accepts. */
export interface KiroHost {
  readonly url: string;
  readonly origin: "AI_EDITOR" | "CLI";
  readonly target: string;
}

const CODEWHISPERER_TARGET = "AmazonCodeWhispererStreamingService.GenerateAssistantResponse";
const Q_TARGET = "AmazonQDeveloperStreamingService.SendMessage";

/** The credential's region: stored, else read from its profile ARN, else us-east-1. */
export function kiroRegion(extra: Readonly<Record<string, unknown>>): string {
  const stored = extraString(extra, "region");
  if (stored && /^[a-z]{2}(-[a-z]+)+-\d$/.test(stored)) return stored;
  const arn = extraString(extra, "profileArn", "profile_arn") ?? "";
  return /^arn:aws[\w-]*:[\w-]+:([a-z]{2}(?:-[a-z]+)+-\d):/.exec(arn)?.[1] ?? "us-east-1";
}

/** How the credential was obtained (`social`, `builder-id`, `idc`, `api_key`, `external_idp`). */
export function kiroAuthMethod(extra: Readonly<Record<string, unknown>>): string {
  return (extraString(extra, "authMethod", "auth_method") ?? "social").toLowerCase().replace("_", "-");
}

/**
 * The hosts of one call in order. A base URL other than the runtime host (a proxy, a test server) is asked
 * with the CodeWhisperer pair at `/generateAssistantResponse`, then with the Q pair at `/`. Otherwise social and Builder ID credentials start at the runtime host;
 * Identity Center and API-key credentials start at their region's AWS hosts.
 */
export function kiroHosts(baseUrl: string, extra: Readonly<Record<string, unknown>>): KiroHost[] {
  const editor = (url: string): KiroHost => ({ url, origin: "AI_EDITOR", target: CODEWHISPERER_TARGET });
  if (baseUrl !== KIRO_RUNTIME_URL) {
    return [editor(`${baseUrl}/generateAssistantResponse`), {
      url: `${baseUrl}/`,
      origin: "CLI",
      target: Q_TARGET,
    }];
  }
  const region = kiroRegion(extra);
  const runtime = editor(`${KIRO_RUNTIME_URL}/generateAssistantResponse`);
  const codewhisperer = editor(`https://codewhisperer.${region}.amazonaws.com/generateAssistantResponse`);
  const q: KiroHost = { url: `https://q.${region}.amazonaws.com/`, origin: "CLI", target: Q_TARGET };
  const method = kiroAuthMethod(extra);
  if (method === "api-key") return [q, codewhisperer, runtime];
  if (method === "idc" || method === "external-idp") return [codewhisperer, q, runtime];
  return [runtime, codewhisperer, q];
}

type Wire = Record<string, unknown>;

function withOrigin(message: unknown, origin: string): unknown {
  const record = message as Wire;
  const input = record?.userInputMessage as Wire | undefined;
  return input ? { ...record, userInputMessage: { ...input, origin } } : message;
}

/** The body for one host: its origin on every user message, the conversation id and the profile ARN. */
export function kiroBodyFor(body: Wire, host: KiroHost, conversationId: string, profileArn?: string): Wire {
  const state = body.conversationState as Wire;
  const history = Array.isArray(state.history)
    ? state.history.map((m) => withOrigin(m, host.origin))
    : undefined;
  return {
    ...body,
    conversationState: {
      ...state,
      conversationId,
      currentMessage: withOrigin(state.currentMessage, host.origin),
      ...(history ? { history } : {}),
    },
    ...(profileArn ? { profileArn } : {}),
  };
}

/** The calls of one attempt, host by host. */
export const KIRO_SHAPER: CallShaper = {
  shape(input: ShapeInput): readonly ShapedCall[] {
    const conversationId = asUuid(input.newId());
    // Builder ID accounts have no profile; sending one is refused.
    const method = kiroAuthMethod(input.extra);
    const profileArn = method === "builder-id"
      ? undefined
      : extraString(input.extra, "profileArn", "profile_arn");
    return kiroHosts(input.baseUrl, input.extra).map((host) => ({
      url: host.url,
      headers: {
        authorization: `Bearer ${input.accessToken}`,
        "content-type": "application/x-amz-json-1.0",
        accept: "application/vnd.amazon.eventstream",
        "x-amz-target": host.target,
        "amz-sdk-request": "attempt=1; max=3",
        "amz-sdk-invocation-id": asUuid(input.newId()),
        "user-agent": "aws-sdk-js/3.0.0 gateway",
        "x-amz-user-agent": "aws-sdk-js/3.0.0 gateway",
        ...(method === "api-key" ? { tokentype: "API_KEY" } : {}),
      },
      json: kiroBodyFor(input.body, host, conversationId, profileArn),
    }));
  },
  failover: (status) => status === 403 || status === 429 || status >= 500,
};

/**
 * Where the model list is read, in the kind's host order: `{host}/ListAvailableModels?origin=AI_EDITOR`
 * (with the profile ARN, never for Builder ID). The runtime host has no model list, so it is skipped; a
 * base URL other than the runtime host (a proxy, a test server) is the one place asked.
 */
export function kiroModelListUrls(baseUrl: string, extra: Readonly<Record<string, unknown>>): string[] {
  const params = new URLSearchParams({ origin: "AI_EDITOR" });
  const profileArn = kiroAuthMethod(extra) === "builder-id"
    ? undefined
    : extraString(extra, "profileArn", "profile_arn");
  if (profileArn) params.set("profileArn", profileArn);
  const hosts = baseUrl === KIRO_RUNTIME_URL
    ? kiroHosts(baseUrl, extra).map((h) => new URL(h.url).origin).filter((o) => o !== KIRO_RUNTIME_URL)
    : [baseUrl];
  return [...new Set(hosts)].map((host) => `${host}/ListAvailableModels?${params}`);
}
