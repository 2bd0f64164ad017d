/**
 * Dashboard single sign-on with OpenID Connect (docs/sso.md): discovery, authorization code with PKCE,
 * ID token verification, email-domain and role admission. The dashboard's login routes drive an SsoService.
 */
export {
  type CallbackParams,
  SSO_CALLBACK_PATH,
  SSO_LOGIN_TTL_MS,
  SSO_START_PATH,
  type SsoDeps,
  SsoService,
  type SsoSignedIn,
  type SsoStart,
} from "./sso_service.ts";
export { type SsoIdentity } from "./admission.ts";
export { SsoError, type SsoFailure } from "./sso_error.ts";
