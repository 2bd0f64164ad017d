import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

const PREFIX = "enc:v1:";

/**
 * Encrypts upstream credentials at rest (AES-256-GCM) so the database never holds them in plaintext.
 * The key comes from `GATEWAY_SECRET_KEY` (base64, 32 bytes) or a `secret.key` file beside the config,
 * created with mode 0600 on first use.
 */
export class SecretBox {
  readonly #key: Uint8Array;
  /** Derived from the key so fingerprints and ciphertexts never share a key. */
  readonly #fingerprintKey: Uint8Array;

  constructor(key: Uint8Array) {
    if (key.length !== 32) throw new Error("secret key must be 32 bytes");
    this.#key = key;
    this.#fingerprintKey = createHmac("sha256", key).update("gateway fingerprint v1").digest();
  }

  /** Encrypts `plain`; the empty string stays empty (no credential). */
  seal(plain: string): string {
    if (plain === "") return "";
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    const body = new Uint8Array([...cipher.update(plain, "utf8"), ...cipher.final(), ...cipher.getAuthTag()]);
    return `${PREFIX}${toBase64(iv)}:${toBase64(body)}`;
  }

  /** A keyed hash (HMAC-SHA256, hex) of `text`: stable for this key, unguessable without it. */
  fingerprint(text: string): string {
    return createHmac("sha256", this.#fingerprintKey).update(text).digest("hex");
  }

  /** Decrypts a sealed value; a value without the prefix is returned as is (legacy plaintext). */
  open(sealed: string): string {
    if (!sealed.startsWith(PREFIX)) return sealed;
    const [ivText, bodyText] = sealed.slice(PREFIX.length).split(":");
    const iv = fromBase64(ivText);
    const body = fromBase64(bodyText);
    const decipher = createDecipheriv("aes-256-gcm", this.#key, iv);
    decipher.setAuthTag(body.subarray(body.length - 16));
    const plain = decipher.update(body.subarray(0, body.length - 16));
    return new TextDecoder().decode(new Uint8Array([...plain, ...decipher.final()]));
  }
}

/** The secret key is missing, damaged or not the one the database's credentials were sealed with. */
export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretKeyError";
  }
}

/**
 * Loads the box key from the environment or the key file. A new key file is written only when none
 * exists and the database holds nothing sealed (`sealedSample` undefined): a lost key must never be
 * replaced silently, or every stored credential would be unreadable.
 */
export function loadSecretBox(keyPath: string, envKey: string | undefined, sealedSample?: string): SecretBox {
  const box = envKey ? keyFrom(envKey, "GATEWAY_SECRET_KEY") : readKeyFile(keyPath);
  if (box === undefined) {
    if (sealedSample !== undefined) {
      throw new SecretKeyError(
        `the secret key file ${keyPath} is missing, but the database holds credentials sealed with it. ` +
          `Restore the file from a backup (or set GATEWAY_SECRET_KEY to the key); to start over without ` +
          `those credentials, move the database away.`,
      );
    }
    const key = randomBytes(32);
    Deno.writeTextFileSync(keyPath, toBase64(key) + "\n", { mode: 0o600, createNew: true });
    return new SecretBox(key);
  }
  if (sealedSample !== undefined) {
    try {
      box.open(sealedSample);
    } catch {
      const source = envKey ? "GATEWAY_SECRET_KEY" : `the secret key file ${keyPath}`;
      throw new SecretKeyError(
        `${source} does not open the credentials stored in the database (another key?). Restore the key ` +
          `they were sealed with.`,
      );
    }
  }
  return box;
}

function readKeyFile(keyPath: string): SecretBox | undefined {
  let text: string;
  try {
    text = Deno.readTextFileSync(keyPath);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new SecretKeyError(`cannot read the secret key file ${keyPath}: ${(error as Error).message}`);
  }
  return keyFrom(text, `the secret key file ${keyPath}`);
}

function keyFrom(text: string, source: string): SecretBox {
  let key: Uint8Array | undefined;
  try {
    key = fromBase64(text.trim());
  } catch { /* reported below */ }
  if (key === undefined || key.length !== 32) {
    throw new SecretKeyError(
      `${source} is damaged: it must hold 32 bytes in base64 (44 characters). Restore it from a backup.`,
    );
  }
  return new SecretBox(key);
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}
