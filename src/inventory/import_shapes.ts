/**
 * Reads the JSON files keys are imported from: the origin's export (`{"keys":[…]}` or a bare array of
 * rows with `key_value`), our own export (the same shape), a plain array of key strings, 9router-style
 * `{"providerConnections":[…]}` (API keys and OAuth connections) and single OAuth credential files
 * (CLIProxyAPI auth files carry a `type`). Pure: no storage, no network.
 */

/** State an export carried for a key (copied on import; a check refreshes it later). */
export interface ImportedState {
  readonly status?: string;
  readonly isValid?: boolean;
  readonly isUsable?: boolean;
  readonly usability?: string;
  readonly creditsRemaining?: number;
  readonly creditsTotal?: number;
  readonly lastError?: string;
}

/** One key found in an import file. */
export interface ImportedKey {
  readonly key: string;
  readonly provider?: string;
  readonly label?: string;
  readonly baseUrl?: string;
  readonly sourceNode?: string;
  readonly priority?: number;
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly state?: ImportedState;
}

/** Provider names peers use for the same upstream. */
const PEER_PROVIDERS: Readonly<Record<string, string>> = {
  "openai-codex": "codex",
  chatgpt: "codex",
  claude: "anthropic",
  gemini: "google",
  "gemini-cli": "google",
};

const text = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
const number = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const bool = (v: unknown) => (typeof v === "boolean" ? v : typeof v === "number" ? v !== 0 : undefined);

function providerName(v: unknown): string | undefined {
  const name = text(v)?.toLowerCase();
  return name === undefined ? undefined : PEER_PROVIDERS[name] ?? name;
}

function fromRow(o: Record<string, unknown>): ImportedKey | null {
  // A key may itself be an OAuth blob object (an export of a credential key keeps it as JSON text).
  const raw = o.key_value ?? o.key ?? o.apiKey ?? o.api_key;
  const provider = providerName(o.provider_id ?? o.provider ?? o.type);
  let key = typeof raw === "object" && raw !== null ? JSON.stringify(raw) : text(raw);
  // A row that is itself an OAuth connection (tokens at top level): the whole row is the credential.
  if (key === undefined) {
    if (text(o.access_token ?? o.accessToken ?? o.refresh_token ?? o.refreshToken) === undefined) return null;
    key = JSON.stringify(o);
  }
  const metadata = typeof o.metadata === "object" && o.metadata !== null && !Array.isArray(o.metadata)
    ? o.metadata as Record<string, unknown>
    : undefined;
  const state: ImportedState = {
    status: text(o.status),
    isValid: bool(o.is_valid),
    isUsable: bool(o.is_usable),
    usability: text(o.usability_status),
    creditsRemaining: number(o.credits_remaining),
    creditsTotal: number(o.credits_total),
    lastError: text(o.last_error),
  };
  return {
    key,
    provider,
    label: text(o.key_label ?? o.label ?? o.name ?? o.email),
    baseUrl: text(o.custom_base_url ?? o.base_url ?? o.baseUrl),
    sourceNode: text(o.source_node ?? o.node_id),
    priority: number(o.priority),
    metadata,
    state: Object.values(state).some((v) => v !== undefined) ? state : undefined,
  };
}

/** The keys in an import file, or an error saying which shape was expected. */
export function parseImport(doc: unknown): { keys: ImportedKey[] } | { error: string } {
  let rows: unknown[];
  if (Array.isArray(doc)) rows = doc;
  else if (typeof doc === "object" && doc !== null) {
    const o = doc as Record<string, unknown>;
    if (Array.isArray(o.keys)) rows = o.keys;
    else if (Array.isArray(o.providerConnections)) rows = o.providerConnections;
    else rows = [o];
  } else return { error: 'expected {"keys": [...]}, an array of keys, or a credential object' };
  const keys: ImportedKey[] = [];
  for (const row of rows) {
    if (typeof row === "string") {
      if (row.trim() !== "") keys.push({ key: row.trim() });
      continue;
    }
    if (typeof row !== "object" || row === null) continue;
    const key = fromRow(row as Record<string, unknown>);
    if (key !== null) keys.push(key);
  }
  if (keys.length === 0) {
    return { error: "the file holds no keys (rows need key_value, key or an access_token)" };
  }
  return { keys };
}
