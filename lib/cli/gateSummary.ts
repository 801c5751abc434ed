import { correctionName } from "@/lib/stats/multipleComparisons";
import { formatLevel, formatP } from "@/lib/stats/significance";
import { pairwiseCriteriaOf, pairwiseSummaryMarkdown } from "./pairwiseGate";
import type { MetricStatistics, ServedComparison } from "./servedComparison";

const MINUS = "\u2212";

/** A value in its unit: a yes-rate as a percentage, seconds and tool calls with two decimals, tokens whole, scores to three decimals. */
function formatValue(unit: MetricStatistics["unit"], value: number | null): string {
  if (value === null) return "n/a";
  if (unit === "rate") return `${(value * 100).toFixed(1)}%`;
  if (unit === "seconds") return `${value.toFixed(2)} s`;
  if (unit === "tokens") return String(Math.round(value));
  if (unit === "calls") return `${value.toFixed(2)} calls`;
  return value.toFixed(3);
}

/** A difference in its unit: yes-rates in percentage points, with a sign. */
function formatDelta(unit: MetricStatistics["unit"], delta: number | null): string {
  if (delta === null) return "n/a";
  const text =
    unit === "rate"
      ? `${Math.abs(delta * 100).toFixed(1)} pts`
      : unit === "seconds"
        ? `${Math.abs(delta).toFixed(2)} s`
        : unit === "tokens"
          ? String(Math.abs(Math.round(delta)))
          : unit === "calls"
            ? `${Math.abs(delta).toFixed(2)} calls`
            : Math.abs(delta).toFixed(3);
  return Number.parseFloat(text) === 0 ? text : `${delta < 0 ? MINUS : "+"}${text}`;
}

function formatInterval(s: MetricStatistics): string {
  if (s.interval_low === null || s.interval_high === null) return "";
  return `${formatDelta(s.unit, s.interval_low)} to ${formatDelta(s.unit, s.interval_high)}`;
}

const VERDICT_WORDS: Record<MetricStatistics["verdict"], string> = {
  worse: "REGRESSION",
  better: "improvement",
  noise: "noise",
  "n/a": "not tested",
};

/** A table cell's text, with nothing that could end the cell or the row. */
function cell(text: string): string {
  return text.replace(/[\r\n]+/g, " ").replace(/\|/g, "\\|");
}
/** Inline code that no backtick in the text can close early. */
function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

/** "Holm's correction for 14 metrics", or "no correction": how the candidate's metrics were read together. */
export function correctionWords(comparison: ServedComparison, candidateId: string): string {
  const family = comparison.statistics.find((s) => s.candidate_run_id === candidateId)?.family_size ?? 0;
  if (comparison.correction === "none") return "no correction for the metrics compared";
  return `${correctionName(comparison.correction)}'s correction for ${family} ${family === 1 ? "metric" : "metrics"}`;
}

/** "0.035", "< 0.001", or empty when the test has no p. */
function pText(p: number | null): string {
  return p === null ? "" : formatP(p).replace(/^= /, "");
}

/**
 * The candidate's statistics on the metrics it asked for: a metric only the baseline ran is not the
 * candidate's to pass or fail, and listing it as "not tested" reads as a gap in this build.
 */
export function candidateStatistics(comparison: ServedComparison, candidateId: string): MetricStatistics[] {
  const asked = new Set(comparison.runs.find((run) => run.id === candidateId)?.metrics ?? []);
  return comparison.statistics.filter((s) => s.candidate_run_id === candidateId && asked.has(s.metric));
}

/** One line per metric for the terminal: the verdict first, then both values, the delta and the test's words. */
export function gateLines(comparison: ServedComparison, candidateId: string): string[] {
  const lines = candidateStatistics(comparison, candidateId).map(
    (s) =>
      `${VERDICT_WORDS[s.verdict].padEnd(11)} ${s.metric}: ${formatValue(s.unit, s.baseline_value)} → ${formatValue(s.unit, s.candidate_value)}; ${s.words}${s.paired_rows > 0 ? ` [${s.paired_rows} paired rows]` : ""}`,
  );
  const pairing = comparison.rowPairings[candidateId];
  return pairing ? [`Rows: ${pairing.words}`, ...lines] : lines;
}

/**
 * The gate's Markdown summary, for `--summary-md` and a GitHub job's step summary: the decision, per metric
 * both values, the paired delta, its interval and real change or noise, how rows paired across datasets,
 * then the first flipped rows (regressions first) with links to the dashboard's side-by-side view.
 */
/** With trials: how many each run made, that the row is the unit of every test, and each run's flaky rows. */
function trialsSentence(comparison: ServedComparison, candidateId: string): string | null {
  const baseline = comparison.runs.find((run) => run.id === comparison.baselineId);
  const candidate = comparison.runs.find((run) => run.id === candidateId);
  if (!baseline || !candidate || (baseline.trials <= 1 && candidate.trials <= 1)) return null;
  const made =
    baseline.trials === candidate.trials
      ? `Each row judged ${candidate.trials} times in both runs`
      : `Each row judged ${baseline.trials} ${baseline.trials === 1 ? "time" : "times"} in the baseline, ${candidate.trials} in this run`;
  return `${made}; every test compares each row's mean over its trials. Flaky rows (trials that disagree on some metric): ${baseline.flakyRows} in the baseline, ${candidate.flakyRows} in this run.`;
}

/** "first 10 of 37: 25 regressions, 12 improvements": the rows listed, out of every flip of the paired rows. */
function flipsHeading(comparison: ServedComparison, candidateId: string, listed: number): string {
  const totals = comparison.flipTotals[candidateId];
  const withTrials = comparison.runs.some((run) => run.trials > 1);
  if (!totals) return `first ${listed}, regressions first`;
  const all = totals.regressions + totals.improvements;
  return `first ${listed} of ${all}: ${totals.regressions} ${totals.regressions === 1 ? "regression" : "regressions"}, ${totals.improvements} ${totals.improvements === 1 ? "improvement" : "improvements"}${withTrials ? "; trial 1 of each run" : ""}`;
}

export function gateSummaryMarkdown(
  comparison: ServedComparison,
  candidateId: string,
  server: string,
  thresholdMisses: string[] = [],
): string {
  const nameOf = (id: string) => comparison.runs.find((run) => run.id === id)?.name ?? id;
  const statistics = candidateStatistics(comparison, candidateId);
  const regressed = [
    ...statistics.filter((s) => s.verdict === "worse").map((s) => s.metric),
    ...pairwiseCriteriaOf(comparison, candidateId)
      .filter((c) => c.verdict === "worse")
      .map((c) => c.metric),
  ];
  const counted = (verdict: MetricStatistics["verdict"]) => statistics.filter((s) => s.verdict === verdict).length;
  const alpha = comparison.alpha;
  const lines = [
    `## Assay: ${cell(nameOf(candidateId))} against ${cell(nameOf(comparison.baselineId))}`,
    "",
    regressed.length > 0
      ? `**Real regression on ${regressed.length} ${regressed.length === 1 ? "metric" : "metrics"}** (α = ${alpha}, ${correctionWords(comparison, candidateId)}): ${regressed.map(code).join(", ")}.`
      : `**No real regression** at α = ${alpha} (${correctionWords(comparison, candidateId)}): ${counted("better")} improved, ${counted("noise")} likely noise, ${counted("n/a")} not tested.`,
  ];
  if (thresholdMisses.length > 0) lines.push("", `**Thresholds missed:** ${thresholdMisses.map(cell).join("; ")}.`);
  const trialsLine = trialsSentence(comparison, candidateId);
  if (trialsLine) lines.push("", trialsLine);
  const pairing = comparison.rowPairings[candidateId];
  if (pairing) lines.push("", `Rows paired across the two datasets: ${cell(pairing.words)}`);
  lines.push(
    "",
    `| Metric | Baseline | This run | Δ (paired rows) | ${formatLevel(1 - alpha)}% interval | p | Adjusted p | Paired rows | Verdict |`,
    "|---|---:|---:|---:|---|---:|---:|---:|---|",
    ...statistics.map((s) =>
      [
        "",
        code(s.metric),
        formatValue(s.unit, s.baseline_value),
        formatValue(s.unit, s.candidate_value),
        formatDelta(s.unit, s.delta),
        formatInterval(s),
        pText(s.p_value),
        pText(s.adjusted_p_value),
        String(s.paired_rows),
        `${s.verdict === "worse" ? "**" : ""}${cell(s.words)}${s.verdict === "worse" ? "**" : ""}`,
        "",
      ]
        .join(" | ")
        .trim(),
    ),
  );
  lines.push(...pairwiseSummaryMarkdown(comparison, candidateId));
  const flips = comparison.flips.filter((flip) => flip.candidate_run_id === candidateId);
  if (flips.length > 0) {
    lines.push(
      "",
      `### Flipped rows (${flipsHeading(comparison, candidateId, flips.length)})`,
      "",
      "| Baseline row | request_id | Metric | Baseline → this run | |",
      "|---:|---|---|---|---|",
      ...flips.map(
        (flip) =>
          `| ${flip.row_number} | ${cell(code(flip.request_id))} | ${code(flip.metric)} | ${flip.direction === "regression" ? "⬇" : "⬆"} ${cell(flip.baseline)} → ${cell(flip.candidate)} | [side by side](${server}${flip.url}) |`,
      ),
    );
  }
  lines.push("", `[Open the comparison on Assay](${server}${comparison.url})`, "");
  return lines.join("\n");
}
