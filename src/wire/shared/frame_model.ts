import { isRecord, tryParseJson } from "./json.ts";

/** Where a format's stream frame names the model: the object holding the field, and the field's name. */
export interface ModelSlot {
  /** Text every frame that names the model contains; frames without it are passed over unparsed. */
  readonly needle: string;
  /** The object holding the model field in a parsed frame, or undefined when this frame has none. */
  readonly holder: (frame: Record<string, unknown>) => Record<string, unknown> | undefined;
  readonly key: string;
}

/**
 * A same-format stream frame's data with its model field set to `model`. Frames that do not name a model
 * keep their exact bytes; only the ones that name another model are parsed and re-serialised.
 */
export function frameWithModel(data: string, model: string, slot: ModelSlot): string {
  if (!data.includes(slot.needle)) return data;
  const parsed = tryParseJson(data);
  if (!isRecord(parsed)) return data;
  const holder = slot.holder(parsed);
  if (holder === undefined || typeof holder[slot.key] !== "string" || holder[slot.key] === model) return data;
  holder[slot.key] = model;
  return JSON.stringify(parsed);
}
