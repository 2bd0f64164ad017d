/** Inventory contract: overview counts, the key list, one key's detail, ingest reports, and the inventory routes. */
import type { Done, Route } from "../../dashboard/contract/api.ts";

/** Inventory overview: counts by provider, status and health, and what the Add Keys form offers. */
export interface InventorySection {
  readonly summary: {
    readonly total: number;
    readonly routable: number;
    readonly active: number;
    readonly pending: number;
    readonly invalid: number;
    readonly error: number;
    readonly unidentified: number;
    readonly archived: number;
    readonly providers: number;
  };
  readonly by_provider: readonly {
    readonly id: string;
    readonly name: string;
    readonly total: number;
    readonly routable: number;
    readonly by_status: Readonly<Record<string, number>>;
  }[];
  readonly by_status: Readonly<Record<string, number>>;
  readonly health: Readonly<Record<string, number>>;
  /** Checks queued or running now. */
  readonly checks_pending: number;
  readonly push_enabled: boolean;
  /** Every key status (filter options). */
  readonly statuses: readonly string[];
  /** Providers a key may be filed under (catalog and configured prefixes). */
  readonly known_providers: readonly { readonly id: string; readonly name: string }[];
}

/** One upstream key of the inventory, masked. */
export interface InventoryKeyView {
  readonly id: string;
  readonly provider_id: string;
  readonly label: string;
  readonly masked: string;
  readonly status: string;
  readonly routable: boolean;
  readonly is_valid: boolean;
  readonly is_usable: boolean;
  readonly usability: string;
  readonly usability_note: string;
  readonly health: string;
  readonly base_url: string;
  readonly priority: number;
  readonly credits_remaining: number | null;
  readonly rate_limit_rpm: number | null;
  readonly rate_limit_tpm: number | null;
  readonly rate_limit_rpd: number | null;
  readonly source_node: string;
  readonly archived: boolean;
  readonly created_at: number;
  readonly last_checked_at: number | null;
  readonly last_error: string;
}

/** A page of inventory keys matching the All Keys filters. */
export interface InventoryKeysSection {
  readonly keys: readonly InventoryKeyView[];
  readonly total: number;
  readonly page: number;
  readonly limit: number;
  readonly filters: {
    readonly provider: string;
    readonly status: string;
    readonly search: string;
    readonly archived: boolean;
  };
}

/** One key with the models it reached and its check history (GET /dashboard/api/inventory/keys/{id}). */
export interface InventoryKeyDetail {
  readonly key: InventoryKeyView;
  /** When the key is checked again ahead of the interval (an error's retry, a daily limit's reset); ms. */
  readonly next_check_at: number | null;
  readonly models: readonly string[];
  readonly history: readonly {
    readonly previous_status: string;
    readonly new_status: string;
    readonly notes: string;
    readonly credits_remaining: number | null;
    readonly changed_at: number;
  }[];
}

/** What Add Keys, Import JSON and push answer: counts and one item per key (masked, never the key). */
export interface InventoryIngestReport {
  readonly summary: {
    readonly registered: number;
    readonly updated: number;
    readonly existed: number;
    readonly rejected: number;
    readonly unidentified: number;
    readonly total: number;
  };
  readonly results: readonly {
    readonly id?: string;
    readonly key_masked: string;
    readonly label: string;
    readonly provider_id?: string;
    readonly provider_display_name?: string;
    readonly status: "registered" | "exists" | "updated" | "rejected" | "unidentified";
    readonly error?: string;
  }[];
}

/** Body of Add Keys (`POST /inventory/keys`): pasted key text, optionally for one provider. */
export interface AddKeysInput {
  readonly text: string;
  readonly provider?: string;
  readonly base_url?: string;
  readonly label?: string;
  /** Find the provider of keys the text does not name. */
  readonly identify?: boolean;
}

/** Answer of a recheck or identify: how many keys were queued. */
export interface ChecksQueued {
  readonly ok: true;
  readonly queued: number;
}

/** Answer of archive and restore. */
export interface KeyArchived {
  readonly ok: true;
  readonly archived: boolean;
}

/** The inventory routes the dashboard calls (push has its own token and shape). */
export interface InventoryApi {
  readonly "POST /inventory/keys": Route<AddKeysInput, InventoryIngestReport>;
  /** The export document itself (JSON), or multipart `export_file`. */
  readonly "POST /inventory/import": Route<unknown, InventoryIngestReport>;
  readonly "GET /inventory/keys/:id": Route<undefined, InventoryKeyDetail>;
  readonly "POST /inventory/keys/:id/recheck": Route<undefined, ChecksQueued>;
  readonly "POST /inventory/keys/:id/identify": Route<undefined, ChecksQueued>;
  readonly "POST /inventory/recheck": Route<undefined, ChecksQueued>;
  readonly "POST /inventory/keys/:id/archive": Route<undefined, KeyArchived>;
  readonly "POST /inventory/keys/:id/restore": Route<undefined, KeyArchived>;
  readonly "DELETE /inventory/keys/:id": Route<undefined, Done>;
}
