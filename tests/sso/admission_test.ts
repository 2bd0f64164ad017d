/** Who may open the dashboard after the provider vouched: verified email, allowed domain, mapped role. */
import { type AdmissionPolicy, admit, claimValues, domainAllowed, mapRole } from "../../src/sso/admission.ts";
import { SsoError } from "../../src/sso/sso_error.ts";
import { assert, assertEquals, assertThrows } from "../helpers/assert.ts";

const POLICY: AdmissionPolicy = {
  issuer: "https://id.example.test",
  allowedDomains: ["example.com"],
  roleClaim: "groups",
  adminValues: ["gateway-admins"],
  viewerValues: ["gateway-viewers"],
  defaultRole: "none",
};

function refused(claims: Record<string, unknown>, policy = POLICY): SsoError {
  return assertThrows(() => admit({ sub: "u-1", ...claims }, policy), SsoError);
}

Deno.test("domainAllowed() matches the email's domain exactly, case aside; no suffix or subdomain tricks", () => {
  assert(domainAllowed("ada@example.com", ["example.com"]));
  assert(domainAllowed("Ada@EXAMPLE.com", ["example.com"]));
  assert(domainAllowed("ada@example.com", ["Example.COM"]));
  assert(!domainAllowed("mallory@evil-example.com", ["example.com"]));
  assert(!domainAllowed("mallory@example.com.evil.net", ["example.com"]));
  assert(!domainAllowed("mallory@sub.example.com", ["example.com"]));
  assert(!domainAllowed("mallory@evil.net@example.com", ["example.com"]), "two @ are refused, not split");
  assert(!domainAllowed("example.com", ["example.com"]));
  assert(!domainAllowed("@example.com", ["example.com"]));
  assert(!domainAllowed("ada @example.com", ["example.com"]));
  assert(domainAllowed("anyone@anywhere.org", ["*"]));
  assert(domainAllowed("ada@other.org", ["example.com", "other.org"]));
});

Deno.test("admit() maps a member of an administrator group to admin and of a viewer group to viewer", () => {
  const admin = admit({
    sub: "u-1",
    email: "ada@example.com",
    name: "Ada",
    groups: ["staff", "gateway-admins"],
  }, POLICY);
  assertEquals(admin, {
    issuer: POLICY.issuer,
    subject: "u-1",
    email: "ada@example.com",
    name: "Ada",
    role: "admin",
  });
  const viewer = admit({ sub: "u-2", email: "bob@example.com", groups: ["gateway-viewers"] }, POLICY);
  assertEquals([viewer.role, viewer.name], ["viewer", "bob@example.com"]);
  const both = admit(
    { sub: "u-3", email: "c@example.com", groups: ["gateway-viewers", "gateway-admins"] },
    POLICY,
  );
  assertEquals(both.role, "admin", "administrator values are checked first");
});

Deno.test("admit() refuses an account whose claim maps to nothing unless a default role is configured", () => {
  const error = refused({ email: "ada@example.com", groups: ["staff"] });
  assertEquals([error.failure, error.status], ["no_role", 403]);
  assert(error.message.includes("sso.default_role: viewer"), error.message);
  assertEquals(refused({ email: "ada@example.com" }).failure, "no_role", "no claim at all");
  const viewer = admit({ sub: "u", email: "ada@example.com", groups: ["staff"] }, {
    ...POLICY,
    defaultRole: "viewer",
  });
  assertEquals(viewer.role, "viewer");
  const noClaim = {
    ...POLICY,
    roleClaim: null,
    adminValues: [],
    viewerValues: [],
    defaultRole: "viewer" as const,
  };
  assertEquals(
    admit({ sub: "u", email: "ada@example.com", groups: ["gateway-admins"] }, noClaim).role,
    "viewer",
  );
});

Deno.test("admit() refuses a domain that is not allowed, evil-example.com included, and a missing email", () => {
  for (const email of ["mallory@evil-example.com", "mallory@other.org", "mallory@sub.example.com"]) {
    const error = refused({ email, groups: ["gateway-admins"] });
    assertEquals([error.failure, error.status], ["domain_refused", 403]);
    assert(error.message.includes("sso.allowed_domains"), error.message);
  }
  assertEquals(refused({ groups: ["gateway-admins"] }).failure, "domain_refused");
});

Deno.test("admit() refuses an email the provider says is unverified (boolean or string); absent is fine", () => {
  assertEquals(
    refused({ email: "ada@example.com", email_verified: false, groups: ["gateway-admins"] }).failure,
    "email_unverified",
  );
  assertEquals(
    refused({ email: "ada@example.com", email_verified: "false", groups: ["gateway-admins"] }).failure,
    "email_unverified",
  );
  assertEquals(
    admit({ sub: "u", email: "ada@example.com", groups: ["gateway-admins"] }, POLICY).role,
    "admin",
  );
  assertEquals(
    admit({ sub: "u", email: "ada@example.com", email_verified: true, groups: ["gateway-admins"] }, POLICY)
      .role,
    "admin",
  );
});

Deno.test("claimValues() reads a string, an array's strings, a dotted path, and a claim name holding dots", () => {
  assertEquals(claimValues({ role: "admin" }, "role"), ["admin"]);
  assertEquals(claimValues({ groups: ["a", 3, "b", null] }, "groups"), ["a", "b"]);
  assertEquals(claimValues({ realm_access: { roles: ["gw-admin"] } }, "realm_access.roles"), ["gw-admin"]);
  assertEquals(claimValues({ "https://example.com/roles": ["x"] }, "https://example.com/roles"), ["x"]);
  assertEquals(claimValues({ groups: { admin: true } }, "groups"), []);
  assertEquals(claimValues({}, "a.b.c"), []);
});

Deno.test("mapRole() matches values exactly (case and whole value)", () => {
  const policy = { ...POLICY, defaultRole: "none" as const };
  assertEquals(mapRole({ groups: ["Gateway-Admins"] }, policy), undefined);
  assertEquals(mapRole({ groups: "gateway-admins-old" }, policy), undefined);
  assertEquals(mapRole({ groups: "gateway-admins" }, policy), "admin");
});
