/** One ratio of a benchmark: measured side by side, once per round. */
export interface Ratio {
  name: string;
  /** The ratio of each round. */
  rounds: number[];
  /** The target as the README states it (">= 0.95", "< 5"). */
  target: string;
}

/** One table of a benchmark run: named columns, rows of cells, and the ratios that matter. */
export interface Section {
  title: string;
  columns: string[];
  rows: Array<Array<string | number>>;
  ratios: Ratio[];
  notes?: string[];
}

/** The p-th percentile (0-100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The median of a list of numbers. */
export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** A number rounded for a table. */
export const fmt = (value: number, digits = 2): string =>
  Number.isFinite(value)
    ? value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : "n/a";

/** The spread of a list of numbers, as "min to max". */
export const span = (values: number[]): string => `${fmt(Math.min(...values))} to ${fmt(Math.max(...values))}`;

/** A ratio as one line: its median, its spread over the rounds, the target, and whether the spread is too wide to tell. */
export function describeRatio(ratio: Ratio): string {
  const mid = median(ratio.rounds);
  const [low, high] = [Math.min(...ratio.rounds), Math.max(...ratio.rounds)];
  const spread = ratio.rounds.length > 1 ? `; ${ratio.rounds.length} rounds: ${span(ratio.rounds)}` : "";
  const goal = Number(/-?\d+(\.\d+)?/.exec(ratio.target)?.[0]);
  // When the rounds spread wider than the distance to the target, one run cannot say which side of it we are on.
  const undecided =
    ratio.rounds.length > 1 && Number.isFinite(goal) && high - low > Math.abs(mid - goal)
      ? " (spread wider than the gap to the target)"
      : "";
  return `${ratio.name}: **${fmt(mid)}** (target ${ratio.target}${spread})${undecided}`;
}

/** A section as an aligned plain-text (and Markdown) table. */
export function renderSection(section: Section): string {
  const cells = [section.columns, ...section.rows.map((row) => row.map(String))];
  const widths = section.columns.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  const out = [
    `### ${section.title}`,
    "",
    line(section.columns),
    `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`,
  ];
  out.push(...section.rows.map((row) => line(row.map(String))));
  if (section.ratios.length > 0) out.push("", ...section.ratios.map((r) => `- ${describeRatio(r)}`));
  for (const note of section.notes ?? []) out.push(`- ${note}`);
  return `${out.join("\n")}\n`;
}
