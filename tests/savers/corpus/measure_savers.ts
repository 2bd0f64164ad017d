import { countTokens } from "gpt-tokenizer";
import type { NeutralRequest } from "../../../src/model/mod.ts";
import { cavemanSaver } from "../../../src/savers/caveman.ts";
import { headroomSaver } from "../../../src/savers/headroom/headroom.ts";
import { ponytailSaver } from "../../../src/savers/ponytail.ts";
import { rtkSaver } from "../../../src/savers/rtk/mod.ts";
import type { Saver } from "../../../src/savers/types.ts";
import { type CorpusEntry, toolResultTexts, transcript } from "./corpus.ts";
import { lostLines } from "./information.ts";

/** What one saver did to one transcript. */
export interface SaverMeasurement {
  readonly saver: string;
  readonly entry: string;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Information-bearing tool-output lines with a word missing afterwards. */
  readonly lost: string[];
  readonly changed: boolean;
}

/** The local savers at their default levels (Headroom is an external service and is not measured). */
export const MEASURED_SAVERS: readonly Saver[] = [
  rtkSaver,
  cavemanSaver("full", new Set()),
  ponytailSaver("full", new Set()),
];

/**
 * The gateway's own Headroom saver pointed at a running Headroom service (`headroom proxy`), for the
 * report only: the corpus tests stay offline. The gateway gives the service 3 s per request; a
 * measurement allows more, so that a cold service is measured rather than skipped.
 */
export function headroomMeasured(url: string, timeoutMs = 60_000): Saver {
  return headroomSaver(url, { fetch, timeoutMs });
}

// The prompt as an upstream tokenises it: system text and every message part, with the o200k encoding.
function promptTokens(request: NeutralRequest): number {
  return countTokens(JSON.stringify({ system: request.system, messages: request.messages }));
}

/** Runs one saver over one corpus entry's transcript. */
export async function measure(saver: Saver, entry: CorpusEntry): Promise<SaverMeasurement> {
  const before = transcript(entry);
  const after = await saver.apply(before, {});
  const inTexts = toolResultTexts(before);
  const outTexts = toolResultTexts(after);
  const lost = inTexts.flatMap((text, i) => lostLines(text, outTexts[i] ?? ""));
  return {
    saver: saver.name,
    entry: entry.name,
    tokensBefore: promptTokens(before),
    tokensAfter: promptTokens(after),
    lost,
    changed: after !== before,
  };
}
