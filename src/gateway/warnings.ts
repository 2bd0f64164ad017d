import type { GatewayWarning, NeutralRequest, UpstreamFormat } from "../model/mod.ts";
import { droppedField, foreignExtraFields } from "../model/mod.ts";

export type { GatewayWarning } from "../model/mod.ts";

/** The response header that lists the codes of an answer's warnings. */
export const WARNINGS_HEADER = "x-gateway-warnings";

/** More codes than this are summarised as `more:<n>` so a hostile request cannot grow the header. */
const MAX_HEADER_CODES = 32;

/**
 * Request-level fields the client's format kept verbatim (`extra`) reach only an upstream of the same
 * format; every other encoder leaves them out, so they are reported here for all targets alike.
 */
export function droppedExtraWarnings(request: NeutralRequest, target: UpstreamFormat): GatewayWarning[] {
  const source = request.extra?.format;
  return foreignExtraFields(request.extra, target).map((name) =>
    droppedField(name, `${name}: a ${source} field the ${target} upstream cannot express; dropped`)
  );
}

/** The header value for a list of warnings: distinct codes, comma-separated (empty when none). */
export function warningsHeaderValue(warnings: readonly GatewayWarning[]): string {
  const codes = [...new Set(warnings.map((w) => w.code))];
  if (codes.length <= MAX_HEADER_CODES) return codes.join(",");
  return [...codes.slice(0, MAX_HEADER_CODES), `more:${codes.length - MAX_HEADER_CODES}`].join(",");
}
