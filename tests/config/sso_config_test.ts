import { ConfigError, parseConfig, resolveHomePaths } from "../../src/config/mod.ts";
import { assert, assertEquals, assertThrows } from "../helpers/assert.ts";

const paths = resolveHomePaths("/tmp/gw/config.yaml", {});
const env = (name: string) => (name === "SSO_SECRET" ? "from-the-environment" : undefined);

function sso(lines: string): string {
  return `sso:\n${lines.trim().split("\n").map((l) => `  ${l.trim()}`).join("\n")}\n`;
}

const BASE = `
issuer: https://id.example.com/realms/main
client_id: gateway
client_secret: \${SSO_SECRET}
allowed_domains: [Example.COM]
role_claim: groups
admin_values: [gateway-admins]
`;

function errorOf(yaml: string): string {
  return assertThrows(() => parseConfig(yaml, paths, env), ConfigError).message;
}

Deno.test("parseConfig() without sso: leaves single sign-on off", () => {
  assertEquals(parseConfig("", paths, env).sso, null);
});

Deno.test("parseConfig() reads sso: with defaults, the secret from ${VAR} and domains in lower case", () => {
  const config = parseConfig(
    sso(BASE + "redirect_base_url: https://gw.example.com/\nscopes: [groups]"),
    paths,
    env,
  );
  assertEquals(config.sso, {
    displayName: "single sign-on",
    issuer: "https://id.example.com/realms/main",
    clientId: "gateway",
    clientSecret: "from-the-environment",
    redirectBaseUrl: "https://gw.example.com",
    scopes: ["groups"],
    allowedDomains: ["example.com"],
    roleClaim: "groups",
    adminValues: ["gateway-admins"],
    viewerValues: [],
    defaultRole: "none",
    tokenAuthMethod: null,
  });
});

Deno.test("parseConfig() keeps the issuer exactly as written (a trailing slash is part of it)", () => {
  const config = parseConfig(sso(BASE.replace("realms/main", "realms/main/")), paths, env);
  assertEquals(config.sso?.issuer, "https://id.example.com/realms/main/");
});

Deno.test("parseConfig() refuses an sso: section that could not work or would let anyone in", () => {
  assert(
    /sso\.issuer: must be an https:\/\/ URL/.test(errorOf(sso(BASE.replace("https://id", "http://id")))),
  );
  // A test provider on this machine may use http.
  assertEquals(
    parseConfig(sso(BASE.replace("https://id.example.com", "http://127.0.0.1:9000")), paths, env).sso?.issuer,
    "http://127.0.0.1:9000/realms/main",
  );
  assert(
    /sso\.allowed_domains: must name at least one/.test(errorOf(sso(BASE.replace("[Example.COM]", "[]")))),
  );
  assert(/sso\.allowed_domains\[0\]: must be an email domain/.test(
    errorOf(sso(BASE.replace("[Example.COM]", '["@example.com"]'))),
  ));
  assert(/sso\.default_role: is none and no role_claim/.test(
    errorOf(sso(BASE.replace("role_claim: groups", "").replace("admin_values: [gateway-admins]", ""))),
  ));
  assert(
    /sso\.role_claim: is required with admin_values/.test(
      errorOf(sso(BASE.replace("role_claim: groups", ""))),
    ),
  );
  assert(/sso\.role_claim: needs admin_values or viewer_values/.test(
    errorOf(sso(BASE.replace("admin_values: [gateway-admins]", ""))),
  ));
  assert(/sso\.token_auth_method: must be one of client_secret_basic, client_secret_post/.test(
    errorOf(sso(BASE + "token_auth_method: private_key_jwt")),
  ));
  assert(/sso\.default_role: must be one of none, viewer/.test(errorOf(sso(BASE + "default_role: admin"))));
  assert(
    /environment variable SSO_MISSING is not set/.test(
      errorOf(sso(BASE.replace("SSO_SECRET", "SSO_MISSING"))),
    ),
  );
  assert(/sso: unknown key "client_secrets"/.test(errorOf(sso(BASE + "client_secrets: x"))));
});

Deno.test("parseConfig() accepts sso: without a role claim when every allowed user is a viewer", () => {
  const yaml = sso(
    BASE.replace("role_claim: groups", "").replace("admin_values: [gateway-admins]", "")
      .replace("[Example.COM]", "['*']") + "default_role: viewer",
  );
  const config = parseConfig(yaml, paths, env).sso;
  assertEquals([config?.defaultRole, config?.roleClaim, config?.allowedDomains], ["viewer", null, ["*"]]);
});
