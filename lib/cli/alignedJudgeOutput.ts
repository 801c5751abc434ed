import fs from "node:fs";
import type { HeldOutComparison } from "@/lib/alignment/heldOutComparison";
import { resolveMetricName } from "@/lib/metrics/metricNames";
import type { AgreementSummary } from "@/lib/stats/agreement";

// What an alignment prints and writes, whether it ran here (alignCommand.ts) or on a server (remoteAlign.ts):
// kept apart from the local alignment so the remote client's imports reach no store and no model client.

/** The aligned judge's definition as the file --custom-judges or --g-eval @FILE reads, and the line saying so. */
export function writeAlignedJudge(
  alignment: { id: string; judgeName: string; definition: { type: "custom" | "g_eval"; judge: unknown } },
  out: string | undefined,
  io: { log(line: string): void },
): void {
  const file = out ?? `${alignment.judgeName}.json`;
  fs.writeFileSync(file, `${JSON.stringify(alignment.definition.judge, null, 2)}\n`);
  const flag = alignment.definition.type === "custom" ? `--custom-judges ${file}` : `--g-eval @${file}`;
  io.log(`Wrote ${alignment.judgeName} to ${file}: run it with ${flag} (alignment ${alignment.id}).`);
}

/** The run's judge a name means: its full name, a built-in's short name or alias, or a custom or G-Eval judge's own name. */
export function runMetricNamed(metrics: readonly string[], name: string): string | null {
  if (metrics.includes(name)) return name;
  const builtIn = resolveMetricName(name);
  if (builtIn && metrics.includes(builtIn)) return builtIn;
  return metrics.find((metric) => metric.endsWith(`/${name}`)) ?? null;
}

type ComparisonLines = Pick<HeldOutComparison, "rows" | "words"> & {
  original: HeldOutSummary;
  aligned: HeldOutSummary;
};
type HeldOutSummary = Pick<AgreementSummary, "kappa" | "rawAgreement" | "labelled" | "errors">;

/** Both versions' held-out agreement in lines, as the CLI prints it (a local alignment, or the API's). */
export function formatComparison(comparison: ComparisonLines): string {
  const line = (name: string, summary: HeldOutSummary) => {
    const kappa = summary.kappa.defined
      ? `${summary.kappa.kappa.toFixed(2)}${summary.kappa.intervalNote ? " (no interval)" : ` [${summary.kappa.low.toFixed(2)}, ${summary.kappa.high.toFixed(2)}]`}`
      : "undefined";
    const raw = summary.rawAgreement === null ? "–" : `${(summary.rawAgreement * 100).toFixed(1)}%`;
    return `  ${name.padEnd(9)} κ ${kappa.padEnd(22)} agreement ${raw.padEnd(7)} judged ${summary.labelled}, errors ${summary.errors}`;
  };
  return [
    `\nOn ${comparison.rows} held-out labels (the same rows for both versions):`,
    line("original", comparison.original),
    line("aligned", comparison.aligned),
    comparison.words,
  ].join("\n");
}
