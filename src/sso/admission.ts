/**
 * Who may open the dashboard after the provider vouched for them, and with which role: the email must be
 * verified (when the provider says), its domain allowed, and a claim must map to a role (or a default apply).
 * Pure: claims and configuration in, an identity or a refusal out.
 */
import type { SsoConfig } from "../config/mod.ts";
import type { SsoSessionIdentity } from "../storage/mod.ts";
import { SsoError } from "./sso_error.ts";

/** A signed-in account as the dashboard session keeps it: issuer, subject, email, name and role. */
export type SsoIdentity = SsoSessionIdentity;

/** The parts of the configuration admission reads. */
export type AdmissionPolicy = Pick<
  SsoConfig,
  "issuer" | "allowedDomains" | "roleClaim" | "adminValues" | "viewerValues" | "defaultRole"
>;

/**
 * The domain of an email address in lower case, or undefined when the address is not `local@domain` with
 * exactly one `@` (quoted local parts holding `@` are refused rather than parsed: a wrong split is a bypass).
 */
export function emailDomain(email: string): string | undefined {
  const parts = email.split("@");
  if (parts.length !== 2 || parts[0] === "" || parts[1] === "" || /\s/.test(email)) return undefined;
  return parts[1].toLowerCase();
}

/**
 * True when the email's domain is one of `allowed` exactly (case aside): `evil-example.com` and
 * `sub.example.com` do not pass `example.com`; `*` lets any domain through.
 */
export function domainAllowed(email: string, allowed: readonly string[]): boolean {
  const domain = emailDomain(email);
  if (domain === undefined) return false;
  return allowed.some((a) => a === "*" || a.toLowerCase() === domain);
}

/**
 * The values of a claim as strings: a string is one value, an array its string members. `name` is looked up
 * as a whole first (claim names may contain dots, like `https://example.com/roles`), then as a dotted path
 * into nested objects (Keycloak's `realm_access.roles`).
 */
export function claimValues(claims: Readonly<Record<string, unknown>>, name: string): string[] {
  let value: unknown = claims[name];
  if (value === undefined && name.includes(".")) {
    value = name.split(".").reduce<unknown>(
      (node, key) =>
        typeof node === "object" && node !== null && !Array.isArray(node)
          ? (node as Record<string, unknown>)[key]
          : undefined,
      claims,
    );
  }
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return [];
}

/** Maps claims to a dashboard role: administrator values first, then viewer values, then the default. */
export function mapRole(
  claims: Readonly<Record<string, unknown>>,
  policy: Pick<AdmissionPolicy, "roleClaim" | "adminValues" | "viewerValues" | "defaultRole">,
): "admin" | "viewer" | undefined {
  if (policy.roleClaim !== null) {
    const values = new Set(claimValues(claims, policy.roleClaim));
    if (policy.adminValues.some((v) => values.has(v))) return "admin";
    if (policy.viewerValues.some((v) => values.has(v))) return "viewer";
  }
  return policy.defaultRole === "viewer" ? "viewer" : undefined;
}

/** Decides whether verified claims may open the dashboard; the identity to open a session for, or a refusal. */
export function admit(
  claims: Readonly<Record<string, unknown>> & { sub: string },
  policy: AdmissionPolicy,
): SsoIdentity {
  const email = typeof claims.email === "string" ? claims.email.trim() : "";
  if (email === "") {
    throw new SsoError(
      "domain_refused",
      "The provider sent no email address for this account, so its domain cannot be checked: make sure the " +
        "client may read the email scope (or claim)",
    );
  }
  // Some providers send the flag as a string.
  if (claims.email_verified === false || claims.email_verified === "false") {
    throw new SsoError(
      "email_unverified",
      `The provider says ${email} is not verified: verify the address with the provider, then sign in again`,
    );
  }
  if (!domainAllowed(email, policy.allowedDomains)) {
    throw new SsoError(
      "domain_refused",
      `${email} may not sign in here: its domain is not one of sso.allowed_domains`,
    );
  }
  const role = mapRole(claims, policy);
  if (role === undefined) {
    throw new SsoError(
      "no_role",
      `${email} signed in, but has no dashboard role: the ${
        JSON.stringify(policy.roleClaim)
      } claim holds none ` +
        "of sso.admin_values or sso.viewer_values (an administrator can add the account to a mapped group, or " +
        "set sso.default_role: viewer)",
    );
  }
  const name = [claims.name, claims.preferred_username].find((v): v is string =>
    typeof v === "string" && v !== ""
  );
  return { issuer: policy.issuer, subject: claims.sub, email, name: name ?? email, role };
}
