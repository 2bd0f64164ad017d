import type { UpstreamFormat, WireFormat } from "./wire_format.ts";

/**
 * Fields a decoder did not map, kept verbatim and tagged with the format they came from, so the
 * same format's encoder can merge them back (lossless same-format trips). Other formats drop them.
 */
export interface Extra {
  readonly format: WireFormat;
  readonly fields: Readonly<Record<string, unknown>>;
  /**
   * Fields the decoder also mapped into the neutral request and keeps here only for a same-format trip
   * (Responses `reasoning`, whose effort is the neutral intent): another format loses nothing by leaving them.
   */
  readonly mirrored?: readonly string[];
}

/** Returns the extra fields only when they came from `format`; otherwise an empty object. */
export function extraFieldsFor(extra: Extra | undefined, format: WireFormat): Record<string, unknown> {
  return extra && extra.format === format ? { ...extra.fields } : {};
}

/**
 * The fields of `extra` that another format's encoder loses: all of them but the mirrored ones, and none
 * when the extra came from `format` itself.
 */
export function foreignExtraFields(extra: Extra | undefined, format: UpstreamFormat): string[] {
  if (!extra || extra.format === format) return [];
  const mirrored = new Set(extra.mirrored);
  return Object.keys(extra.fields).filter((name) => !mirrored.has(name));
}

/** Splits `source` into the fields named in `known` and an Extra holding everything else. */
export function splitExtra(
  source: Record<string, unknown>,
  known: ReadonlySet<string>,
  format: WireFormat,
): Extra | undefined {
  const fields: Record<string, unknown> = {};
  let any = false;
  for (const [key, value] of Object.entries(source)) {
    if (known.has(key) || value === undefined) continue;
    fields[key] = value;
    any = true;
  }
  return any ? { format, fields } : undefined;
}
