import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const PREFIX = "enc:v1:";

/**
 * Encrypts upstream credentials at rest (AES-256-GCM) so the database never holds them in plaintext.
 * The key comes from `GATEWAY_SECRET_KEY` (base64, 32 bytes) or a `secret.key` file beside the config,
 * created with mode 0600 on first use.
 */
export class SecretBox {
  readonly #key: Uint8Array;

  constructor(key: Uint8Array) {
    if (key.length !== 32) throw new Error("secret key must be 32 bytes");
    this.#key = key;
  }

  /** Encrypts `plain`; the empty string stays empty (no credential). */
  seal(plain: string): string {
    if (plain === "") return "";
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    const body = new Uint8Array([...cipher.update(plain, "utf8"), ...cipher.final(), ...cipher.getAuthTag()]);
    return `${PREFIX}${toBase64(iv)}:${toBase64(body)}`;
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

/** Loads the box key from the environment or the key file, creating the file when missing. */
export function loadSecretBox(keyPath: string, envKey: string | undefined): SecretBox {
  if (envKey) return new SecretBox(fromBase64(envKey.trim()));
  try {
    return new SecretBox(fromBase64(Deno.readTextFileSync(keyPath).trim()));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const key = randomBytes(32);
  Deno.writeTextFileSync(keyPath, toBase64(key) + "\n", { mode: 0o600, createNew: true });
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
