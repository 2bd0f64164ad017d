/**
 * The Prometheus text exposition format (0.0.4): sample lines of each family, label escaping, and the
 * HELP/TYPE blocks that put every family's samples together.
 */
import { type CollectedGauge, Counter, Histogram, type MetricType } from "./series.ts";

/** One family as text: what a process shares with the other workers of its instance. */
export interface FamilyText {
  readonly name: string;
  readonly help: string;
  readonly type: MetricType;
  readonly lines: readonly string[];
}

/** Constant labels (worker, instance) as the text that leads every series' label set. */
export function constantLabelText(labels: readonly (readonly [string, string])[]): string {
  return labels.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(",");
}

/** A family with its sample lines rendered, each label set led by `constant` (see constantLabelText). */
export function familyText(family: Counter | Histogram | CollectedGauge, constant: string): FamilyText {
  const lines: string[] = [];
  if (family instanceof Counter) {
    for (const { labels, value } of family.entries()) {
      lines.push(`${family.name}${labelSet(constant, family.labelNames, labels)} ${num(value.n)}`);
    }
  } else if (family instanceof Histogram) {
    histogramLines(family, constant, lines);
  } else {
    for (const [labels, value] of family.collect()) {
      lines.push(`${family.name}${labelSet(constant, family.labelNames, labels)} ${num(value)}`);
    }
  }
  return { name: family.name, help: family.help, type: family.type, lines };
}

/**
 * The exposition text of `families`, with the sample lines of the same families from `others` (other
 * processes' snapshots, whose series differ by their `worker` label) inside each family's block: the
 * format wants every family's samples together, under one HELP and TYPE.
 */
export function exposition(
  families: readonly FamilyText[],
  others: readonly (readonly FamilyText[])[] = [],
): string {
  const out: string[] = [];
  for (const family of families) {
    out.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    out.push(...family.lines);
    for (const other of others) {
      const same = other.find((f) => f.name === family.name && f.type === family.type);
      if (same !== undefined) out.push(...same.lines);
    }
  }
  return out.join("\n") + "\n";
}

function histogramLines(family: Histogram, constant: string, lines: string[]): void {
  for (const { labels, value } of family.entries()) {
    let cumulative = 0;
    family.buckets.forEach((bound, i) => {
      cumulative += value.counts[i];
      const le = labelSet(constant, family.labelNames, labels, num(bound));
      lines.push(`${family.name}_bucket${le} ${num(cumulative)}`);
    });
    lines.push(
      `${family.name}_bucket${labelSet(constant, family.labelNames, labels, "+Inf")} ${num(value.count)}`,
    );
    const plain = labelSet(constant, family.labelNames, labels);
    lines.push(
      `${family.name}_sum${plain} ${num(value.sum)}`,
      `${family.name}_count${plain} ${num(value.count)}`,
    );
  }
}

function labelSet(
  constant: string,
  names: readonly string[],
  values: readonly string[],
  le?: string,
): string {
  const parts: string[] = constant === "" ? [] : [constant];
  names.forEach((name, i) => parts.push(`${name}="${escapeLabel(values[i] ?? "")}"`));
  if (le !== undefined) parts.push(`le="${le}"`);
  return parts.length === 0 ? "" : `{${parts.join(",")}}`;
}

/** A sample value as the text format writes it. */
function num(value: number): string {
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  if (Number.isNaN(value)) return "NaN";
  return String(value);
}

function escapeLabel(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === "\n" ? "\\n" : `\\${c}`));
}

function escapeHelp(value: string): string {
  return value.replace(/[\\\n]/g, (c) => (c === "\n" ? "\\n" : "\\\\"));
}
