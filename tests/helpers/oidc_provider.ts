/**
 * A real OpenID provider for tests: the certified `oidc-provider` package on a loopback port, in this process,
 * with development login and consent forms (the user name is the account id; any password).
 */
import Provider from "oidc-provider";
import { createServer, type Server } from "node:http";

export const CLIENT_ID = "gateway-dashboard";
export const CLIENT_SECRET = "a-client-secret-of-the-test-provider-0123456789";
/** A second client: registered for client_secret_post, with ES256-signed ID tokens. */
export const ES_CLIENT_ID = "gateway-es256";
export const ES_CLIENT_SECRET = "another-client-secret-of-the-test-provider-9876";

/** The provider's accounts: the login form's user name is the account id. */
export const ACCOUNTS: Record<string, { email: string; name: string; groups: string[] }> = {
  ada: { email: "ada@example.com", name: "Ada Admin", groups: ["staff", "gateway-admins"] },
  vic: { email: "vic@Example.com", name: "Vic Viewer", groups: ["gateway-viewers"] },
  mallory: { email: "mallory@evil-example.com", name: "Mallory", groups: ["gateway-admins"] },
  nora: { email: "nora@example.com", name: "Nora Nobody", groups: ["staff"] },
};

/** A free loopback port (the provider must know the gateway's callback, and the gateway its issuer). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** A private signing key for the provider's own key set (RS256 and ES256). */
async function signingKey(
  kid: string,
  params: RsaHashedKeyGenParams | EcKeyGenParams,
): Promise<JsonWebKey & { kid: string }> {
  const pair = await crypto.subtle.generateKey(params, true, ["sign", "verify"]) as CryptoKeyPair;
  return {
    ...await crypto.subtle.exportKey("jwk", pair.privateKey),
    kid,
    key_ops: undefined,
    ext: undefined,
  };
}

/** Starts oidc-provider on loopback (on `port` when given) with two confidential clients and the accounts above. */
export async function startProvider(
  redirectUri: string,
  port = freePort(),
): Promise<{ issuer: string; close(): Promise<void> }> {
  const issuer = `http://127.0.0.1:${port}`;
  const keys = [
    await signingKey("rsa-1", {
      name: "RSASSA-PKCS1-v1_5",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: "SHA-256",
    }),
    await signingKey("ec-1", { name: "ECDSA", namedCurve: "P-256" }),
  ];
  const client = {
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code"],
    response_types: ["code"],
  };
  const provider = new Provider(issuer, {
    clients: [
      {
        ...client,
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        token_endpoint_auth_method: "client_secret_basic",
      },
      {
        ...client,
        client_id: ES_CLIENT_ID,
        client_secret: ES_CLIENT_SECRET,
        token_endpoint_auth_method: "client_secret_post",
        id_token_signed_response_alg: "ES256",
      },
    ],
    jwks: { keys },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
    findAccount: (_ctx: unknown, id: string) => {
      const account = ACCOUNTS[id];
      if (account === undefined) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: account.email,
          email_verified: true,
          name: account.name,
          groups: account.groups,
        }),
      };
    },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ["a-cookie-signing-key-for-the-test-provider"] },
    pkce: { required: () => true },
  });
  const server: Server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    issuer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
