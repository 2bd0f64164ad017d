/** What kinds whose calls depend on the stored credential (project, region, hosts) get to build them. */
export interface ShapeInput {
  /** The provider's base URL, without a trailing slash. */
  readonly baseUrl: string;
  /** The access token to send. */
  readonly accessToken: string;
  /** Non-secret fields stored beside the tokens (project, region, profile ARN, auth method). */
  readonly extra: Readonly<Record<string, unknown>>;
  /** The upstream codec's body. */
  readonly body: Record<string, unknown>;
  readonly model: string;
  readonly stream: boolean;
  /** A fresh random id (request and conversation ids); passed in so shapers stay deterministic in tests. */
  readonly newId: () => string;
}

/** One HTTP call of an attempt. */
export interface ShapedCall {
  readonly url: string;
  readonly headers: Record<string, string>;
  /**
   * The JSON body, as the value it is written from: the caller writes it (a body holding a long string
   * is written a slice per turn, src/gateway/sliced_json.ts). Hosts that take the same body share the value.
   */
  readonly json: Record<string, unknown>;
}

/**
 * Builds an attempt's calls: usually one; several when the kind fails over between hosts (tried in order,
 * the next only when `failover` says the answer's status allows it).
 */
export interface CallShaper {
  shape(input: ShapeInput): readonly ShapedCall[];
  /** Whether an answer with this status moves on to the next host instead of ending the attempt. */
  failover(status: number): boolean;
}

/** A string field of `extra` under any of `names`, or undefined. */
export function extraString(
  extra: Readonly<Record<string, unknown>>,
  ...names: string[]
): string | undefined {
  for (const name of names) {
    const value = extra[name];
    if (typeof value === "string" && value !== "") return value;
    if (value !== null && typeof value === "object" && typeof (value as { id?: unknown }).id === "string") {
      return (value as { id: string }).id;
    }
  }
  return undefined;
}

/** A 32-hex-digit id in UUID form (8-4-4-4-12); other ids pass unchanged. */
export function asUuid(id: string): string {
  if (!/^[0-9a-f]{32}$/i.test(id)) return id;
  return `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
}
