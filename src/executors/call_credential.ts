import type { ProviderConfig } from "../config/mod.ts";
import { CredentialFormatError, parseCredential } from "../credentials/mod.ts";
import { GatewayError } from "../model/mod.ts";

/** The token a call sends and the non-secret fields stored beside it (project, region, profile). */
export interface CallCredential {
  readonly accessToken: string;
  readonly extra: Readonly<Record<string, unknown>>;
}

/**
 * The stored credential of a provider whose calls are shaped from it. A credential that cannot be used
 * (broken JSON, no access token yet) is an authentication failure of this account, so the attempt falls
 * back; the message names no secret.
 */
export function credentialFor(provider: ProviderConfig, nowMs: number): CallCredential {
  try {
    const blob = parseCredential(provider.apiKey, Math.floor(nowMs / 1000));
    if (blob.accessToken === "") throw new CredentialFormatError("the credential has no access token yet");
    return { accessToken: blob.accessToken, extra: blob.extra };
  } catch (error) {
    if (!(error instanceof CredentialFormatError)) throw error;
    throw new GatewayError(
      401,
      "authentication",
      `provider "${provider.id}": ${error.message}; sign in again`,
    );
  }
}
