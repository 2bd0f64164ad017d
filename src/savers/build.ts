import { CAVEMAN_INSTRUCTIONS, cavemanSaver } from "./caveman.ts";
import { headroomSaver } from "./headroom/headroom.ts";
import { PONYTAIL_INSTRUCTIONS, ponytailSaver } from "./ponytail.ts";
import { rtkSaver } from "./rtk/saver.ts";
import type { Saver, SaverLevel } from "./types.ts";

/** The saver settings, as the runtime settings hold them. */
export interface SaverSettings {
  readonly rtk: boolean;
  readonly caveman: { readonly enabled: boolean; readonly level: SaverLevel };
  readonly ponytail: { readonly enabled: boolean; readonly level: SaverLevel };
  readonly headroom: { readonly enabled: boolean; readonly url: string };
}

/** What the savers need from outside (only Headroom does I/O). */
export interface SaverDeps {
  readonly fetch: typeof fetch;
  /** A signal that aborts after `ms`; defaults to AbortSignal.timeout. */
  readonly timeoutSignal?: (ms: number) => AbortSignal;
}

const KNOWN_INSTRUCTIONS: ReadonlySet<string> = new Set([...CAVEMAN_INSTRUCTIONS, ...PONYTAIL_INSTRUCTIONS]);

/** The enabled savers, in pipeline order (Headroom → RTK → Caveman → Ponytail). */
export function buildSavers(settings: SaverSettings, deps: SaverDeps): Saver[] {
  const savers: Saver[] = [];
  if (settings.headroom.enabled) {
    savers.push(
      headroomSaver(settings.headroom.url, { fetch: deps.fetch, timeoutSignal: deps.timeoutSignal }),
    );
  }
  if (settings.rtk) savers.push(rtkSaver);
  if (settings.caveman.enabled) savers.push(cavemanSaver(settings.caveman.level, KNOWN_INSTRUCTIONS));
  if (settings.ponytail.enabled) savers.push(ponytailSaver(settings.ponytail.level, KNOWN_INSTRUCTIONS));
  return savers;
}
