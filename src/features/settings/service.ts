import {
  isSettingKey,
  resolveSettings,
  type RuntimeSettings,
  validateSetting,
} from "../../config/runtime_settings.ts";
import type { ManagementDeps } from "../deps.ts";
import { invalidField } from "../field_error.ts";

/** What a settings change did. */
export interface SettingsChange {
  readonly changed: readonly string[];
  readonly settings: RuntimeSettings;
}

/** Runtime settings: stored values over defaults. */
export class SettingsService {
  readonly #deps: ManagementDeps;

  constructor(deps: ManagementDeps) {
    this.#deps = deps;
  }

  /** The values stored in the database (the rest are defaults). */
  stored(): Map<string, string> {
    return this.#deps.store.settings.all();
  }

  /** Every setting in force. */
  resolved(): RuntimeSettings {
    return resolveSettings(this.stored(), this.#deps.config.server.requireApiKey);
  }

  /**
   * Applies a partial map. Every entry is validated (and clamped where the setting clamps) before any is
   * stored, so one bad value changes nothing; `null` deletes the stored value (back to the default).
   */
  apply(changes: Readonly<Record<string, unknown>>): SettingsChange {
    const writes: [string, string][] = [];
    const deletes: string[] = [];
    for (const [key, value] of Object.entries(changes)) {
      if (!isSettingKey(key)) throw invalidField(key, `unknown setting "${key}"`);
      if (value === null) {
        deletes.push(key);
        continue;
      }
      if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
        throw invalidField(key, "must be a string, number or boolean");
      }
      const checked = validateSetting(key, String(value));
      if (!checked.ok) throw invalidField(key, checked.error.replace(`${key}: `, ""));
      writes.push([key, checked.text]);
    }
    const { store } = this.#deps;
    store.transaction(() => {
      for (const [key, value] of writes) store.settings.set(key, value);
      if (deletes.length > 0) store.settings.delete(deletes);
    });
    this.#deps.reload();
    return { changed: [...writes.map(([key]) => key), ...deletes], settings: this.resolved() };
  }
}
