import type { ApiType, OAuthOverrides } from "../config/mod.ts";

export type { OAuthOverrides };

/**
 * Per-kind facts of the subscription (OAuth) provider kinds, as data: real hosts and public client ids
 * as defaults, every URL overridable per provider (`providers[].oauth`). The sign-in flows read the
 * device/authorize facts from here; the refresh strategies read the token facts.
 */
export interface OAuthKindFacts {
  /** Human label for messages and the dashboard. */
  readonly label: string;
  /** The API base when a provider leaves `base_url` at the kind's default. */
  readonly defaultBaseUrl: string;
  /** The public OAuth client id of the official client. */
  readonly clientId: string;
  /** Installed-app client secret (Google's kinds); configuration only, never a default in code. */
  readonly clientSecret?: string;
  /** Where refresh tokens (and authorization codes) are exchanged; null when the kind never refreshes. */
  readonly tokenUrl: string | null;
  /** How the token endpoint wants its body. */
  readonly tokenBody: "json" | "form";
  /** `scope` sent with a refresh, when the server wants one. */
  readonly refreshScope?: string;
  /** Refresh this long before the access token expires. */
  readonly refreshLeadS: number;
  /** Authorization-code flow with PKCE (paste-the-redirect-URL). */
  readonly authorize?: {
    readonly url: string;
    readonly redirectUri: string;
    readonly scopes: string;
    /** Extra query parameters the official client sends. */
    readonly params?: Readonly<Record<string, string>>;
  };
  /** Device-code flow. */
  readonly device?: {
    /** Starts the flow (returns the user code). */
    readonly codeUrl: string;
    /** Polled until the user finished. */
    readonly tokenUrl: string;
    /** Where the user enters the code. */
    readonly verificationUrl: string;
    readonly scopes?: string;
    /** RFC 8628 (GitHub), OpenAI's own device-auth protocol, or AWS SSO-OIDC's camelCase one (Kiro). */
    readonly protocol: "rfc8628" | "openai_deviceauth" | "aws_oidc";
    /** OpenAI's device flow finishes with a code exchange on this redirect URI. */
    readonly redirectUri?: string;
    /** AWS: each sign-in first registers a public client here (its id and secret refresh the tokens). */
    readonly registerUrl?: string;
    /** AWS: the sign-in portal (Builder ID's, or an Identity Center organisation's own start URL). */
    readonly startUrl?: string;
  };
  /** AWS: the region the OIDC hosts and the stored credential belong to. */
  readonly region?: string;
  /** Copilot: the GitHub token is exchanged here for a short-lived session token. */
  readonly sessionTokenUrl?: string;
  /** Where the kind's subscription usage / quota is read. */
  readonly usageUrl?: string;
}

/** AWS Builder ID's sign-in portal (Identity Center organisations have their own start URL). */
export const BUILDER_ID_START_URL = "https://view.awsapps.com/start";
const KIRO_DEFAULT_REGION = "us-east-1";

/** The subscription kinds whose credentials this build carries (other helpers add theirs here). */
export const OAUTH_KINDS: Readonly<Partial<Record<ApiType, OAuthKindFacts>>> = {
  responses_oauth: {
    label: "ChatGPT / Codex subscription",
    defaultBaseUrl: "https://chatgpt.com/backend-api/codex",
    clientId: "app_EMoamEEZ73f0CkXaXp7hrann",
    tokenUrl: "https://auth.openai.com/oauth/token",
    tokenBody: "form",
    refreshScope: "openid profile email",
    refreshLeadS: 5 * 86_400,
    authorize: {
      url: "https://auth.openai.com/oauth/authorize",
      redirectUri: "http://localhost:1455/auth/callback",
      scopes: "openid profile email offline_access",
      params: {
        id_token_add_organizations: "true",
        codex_cli_simplified_flow: "true",
        originator: "codex_cli_rs",
      },
    },
    device: {
      codeUrl: "https://auth.openai.com/api/accounts/deviceauth/usercode",
      tokenUrl: "https://auth.openai.com/api/accounts/deviceauth/token",
      verificationUrl: "https://auth.openai.com/codex/device",
      protocol: "openai_deviceauth",
      redirectUri: "https://auth.openai.com/deviceauth/callback",
    },
    usageUrl: "https://chatgpt.com/backend-api/wham/usage",
  },
  messages_oauth: {
    label: "Claude subscription",
    defaultBaseUrl: "https://api.anthropic.com",
    clientId: "9d1c250a-e61b-44d9-88ed-5944d1962f5e",
    tokenUrl: "https://platform.claude.com/v1/oauth/token",
    tokenBody: "json",
    refreshLeadS: 4 * 3600,
    authorize: {
      url: "https://claude.ai/oauth/authorize",
      // Anthropic's own page shows `code#state` to paste back: works for remote servers too.
      redirectUri: "https://platform.claude.com/oauth/code/callback",
      scopes: "user:profile user:inference user:sessions:claude_code",
      params: { code: "true" },
    },
    usageUrl: "https://api.anthropic.com/api/oauth/usage",
  },
  device_oauth_assistant: {
    label: "GitHub Copilot",
    defaultBaseUrl: "https://api.githubcopilot.com",
    clientId: "Iv1.b507a08c87ecfe98",
    // Only GitHub Apps with expiring user tokens refresh; a plain GitHub token is long-lived.
    tokenUrl: "https://github.com/login/oauth/access_token",
    tokenBody: "form",
    refreshLeadS: 300,
    device: {
      codeUrl: "https://github.com/login/device/code",
      tokenUrl: "https://github.com/login/oauth/access_token",
      verificationUrl: "https://github.com/login/device",
      scopes: "read:user",
      protocol: "rfc8628",
    },
    sessionTokenUrl: "https://api.github.com/copilot_internal/v2/token",
    usageUrl: "https://api.github.com/copilot_internal/user",
  },
  // Google's installed-app client id and secret are not shipped: set providers[].oauth.client_id and
  // client_secret (e.g. from ${VAR}); docs/subscriptions.md says where they come from.
  cli_oauth: googleCloudCode("Gemini CLI (Cloud Code)", "http://localhost:8085/oauth2callback", []),
  cli_oauth_alt: googleCloudCode("Antigravity (Cloud Code)", "http://localhost:51121/oauth-callback", [
    "https://www.googleapis.com/auth/cclog",
    "https://www.googleapis.com/auth/experimentsandconfigs",
  ]),
  cloud_assistant_oauth: {
    label: "Kiro / CodeWhisperer",
    defaultBaseUrl: "https://runtime.us-east-1.kiro.dev",
    // Builder ID / Identity Center credentials carry their own registered client id and secret.
    clientId: "",
    // Social sign-ins refresh here; OIDC ones at https://oidc.<region>.amazonaws.com/token (a token_url
    // override sends both to one place).
    tokenUrl: "https://prod.us-east-1.auth.desktop.kiro.dev/refreshToken",
    tokenBody: "json",
    refreshLeadS: 300,
    // Builder ID lives in us-east-1; an Identity Center organisation sets its own region and start URL.
    region: KIRO_DEFAULT_REGION,
    device: awsOidcDevice(KIRO_DEFAULT_REGION),
  },
};

/** The AWS SSO-OIDC token endpoint of a region (device sign-in polls and OIDC refreshes go there). */
export function awsOidcTokenUrl(region: string): string {
  return `https://oidc.${region}.amazonaws.com/token`;
}

/** The AWS SSO-OIDC endpoints of one region, and the Builder ID portal as the default start URL. */
function awsOidcDevice(region: string): NonNullable<OAuthKindFacts["device"]> {
  const oidc = `https://oidc.${region}.amazonaws.com`;
  return {
    protocol: "aws_oidc",
    registerUrl: `${oidc}/client/register`,
    codeUrl: `${oidc}/device_authorization`,
    tokenUrl: awsOidcTokenUrl(region),
    // Used only if the device endpoint names no verification link (AWS always does).
    verificationUrl: `https://device.sso.${region}.amazonaws.com/`,
    startUrl: BUILDER_ID_START_URL,
    scopes: "codewhisperer:completions codewhisperer:analysis codewhisperer:conversations",
  };
}

function googleCloudCode(label: string, redirectUri: string, extraScopes: string[]): OAuthKindFacts {
  return {
    label,
    defaultBaseUrl: "https://cloudcode-pa.googleapis.com",
    clientId: "",
    tokenUrl: "https://oauth2.googleapis.com/token",
    tokenBody: "form",
    refreshLeadS: 300,
    authorize: {
      url: "https://accounts.google.com/o/oauth2/v2/auth",
      redirectUri,
      scopes: [
        "https://www.googleapis.com/auth/cloud-platform",
        "https://www.googleapis.com/auth/userinfo.email",
        "https://www.googleapis.com/auth/userinfo.profile",
        ...extraScopes,
      ].join(" "),
      params: { access_type: "offline", prompt: "consent" },
    },
  };
}

/** The facts of a subscription kind, or null for API-key kinds. */
export function oauthKind(apiType: ApiType): OAuthKindFacts | null {
  return OAUTH_KINDS[apiType] ?? null;
}

/** A kind's facts with one provider's overrides applied (the one place the two meet). */
export function resolveOAuthKind(
  apiType: ApiType,
  overrides: OAuthOverrides | undefined,
): OAuthKindFacts | null {
  const base = oauthKind(apiType);
  if (base === null) return null;
  const o = overrides ?? {};
  // Only kinds with a region (Kiro) take one; elsewhere an `oauth.region` would mean nothing.
  const region = base.region !== undefined ? o.region ?? base.region : undefined;
  // AWS device hosts follow the region; the per-URL overrides below still win over the derived ones.
  const device = base.device?.protocol === "aws_oidc" && region !== undefined
    ? { ...awsOidcDevice(region), startUrl: o.startUrl ?? base.device.startUrl }
    : base.device;
  return {
    ...base,
    clientId: o.clientId ?? base.clientId,
    ...(o.clientSecret ?? base.clientSecret ? { clientSecret: o.clientSecret ?? base.clientSecret } : {}),
    tokenUrl: o.tokenUrl ?? base.tokenUrl,
    ...(base.authorize
      ? {
        authorize: {
          ...base.authorize,
          url: o.authorizeUrl ?? base.authorize.url,
          redirectUri: o.redirectUri ?? base.authorize.redirectUri,
        },
      }
      : {}),
    ...(region !== undefined ? { region } : {}),
    ...(device
      ? {
        device: {
          ...device,
          codeUrl: o.deviceCodeUrl ?? device.codeUrl,
          tokenUrl: o.deviceTokenUrl ?? device.tokenUrl,
          verificationUrl: o.verificationUrl ?? device.verificationUrl,
          ...(device.registerUrl ? { registerUrl: o.registerUrl ?? device.registerUrl } : {}),
        },
      }
      : {}),
    ...(o.sessionTokenUrl ?? base.sessionTokenUrl
      ? { sessionTokenUrl: o.sessionTokenUrl ?? base.sessionTokenUrl }
      : {}),
    ...(o.usageUrl ?? base.usageUrl ? { usageUrl: o.usageUrl ?? base.usageUrl } : {}),
  };
}
