import type { Extra, Message, Part, TextPart } from "../../model/mod.ts";

const FORMAT = "responses";

/** Message extra key holding items without a neutral form, each with the part index it preceded. */
export const OPAQUE_ITEMS = "opaque_items";

/** A join rule that continues whatever assistant turn is open. */
export const always = (): boolean => true;

/** Accumulates neutral messages while walking the input items. */
export class Conversation {
  readonly system: TextPart[] = [];
  readonly messages: Message[] = [];
  private assistant: Part[] | null = null;
  private tool: Part[] | null = null;

  /** Continues the open assistant turn when `join` accepts it, else starts a fresh one. */
  assistantParts(join: (open: readonly Part[]) => boolean, extra?: Extra): Part[] {
    this.tool = null;
    const lastIndex = this.messages.length - 1;
    const last = this.messages[lastIndex];
    // An open assistant turn is always the last message: every other push closes it.
    if (this.assistant && join(this.assistant)) {
      if (extra) {
        this.messages[lastIndex] = {
          ...last,
          extra: { format: FORMAT, fields: { ...last.extra?.fields, ...extra.fields } },
        };
      }
      return this.assistant;
    }
    const parts: Part[] = [];
    this.messages.push({ role: "assistant", parts, ...(extra ? { extra } : {}) });
    this.assistant = parts;
    return parts;
  }

  toolParts(): Part[] {
    this.assistant = null;
    if (this.tool) return this.tool;
    const parts: Part[] = [];
    this.messages.push({ role: "tool", parts });
    this.tool = parts;
    return parts;
  }

  /**
   * Keeps an item the neutral model has no form for (hosted and custom tool calls) on the last message,
   * with the part position it came at, so a Responses upstream gets it back in place.
   */
  opaque(item: Record<string, unknown>): void {
    if (this.messages.length === 0) this.assistantParts(always);
    const lastIndex = this.messages.length - 1;
    const last = this.messages[lastIndex];
    const fields = last.extra?.format === FORMAT ? last.extra.fields : {};
    const kept = Array.isArray(fields[OPAQUE_ITEMS]) ? fields[OPAQUE_ITEMS] : [];
    this.messages[lastIndex] = {
      ...last,
      extra: {
        format: FORMAT,
        fields: { ...fields, [OPAQUE_ITEMS]: [...kept, { at: last.parts.length, item }] },
      },
    };
  }

  user(parts: Part[], extra: Extra | undefined): void {
    this.assistant = null;
    this.tool = null;
    this.messages.push({ role: "user", parts, ...(extra ? { extra } : {}) });
  }
}
