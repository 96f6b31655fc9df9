/** One table of a benchmark run: named columns, rows of cells, and the ratios that matter. */
export interface Section {
  title: string;
  columns: string[];
  rows: Array<Array<string | number>>;
  /** Ratios measured side by side in the same run, with the target they are compared to. */
  ratios: Array<{ name: string; value: number; target: string }>;
  notes?: string[];
}

/** The p-th percentile (0-100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** A number rounded for a table. */
export const fmt = (value: number, digits = 2): string =>
  Number.isFinite(value) ? value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits }) : "n/a";

/** A section as an aligned plain-text (and Markdown) table. */
export function renderSection(section: Section): string {
  const cells = [section.columns, ...section.rows.map((row) => row.map(String))];
  const widths = section.columns.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  const out = [`### ${section.title}`, "", line(section.columns), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`];
  out.push(...section.rows.map((row) => line(row.map(String))));
  if (section.ratios.length > 0) {
    out.push("");
    for (const r of section.ratios) out.push(`- ${r.name}: **${fmt(r.value)}** (target ${r.target})`);
  }
  for (const note of section.notes ?? []) out.push(`- ${note}`);
  return `${out.join("\n")}\n`;
}
