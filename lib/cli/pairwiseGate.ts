import { pairwiseDetailSchema, type PairwiseDetail } from "@/lib/api/pairwiseSchemas";
import type { ApiClient } from "./apiClient";
import type { GatePairwise } from "./pairwiseArgs";
import { createProgressBar } from "./progressBar";
import type { ServedComparison } from "./servedComparison";

type Criterion = PairwiseDetail["criteria"][number];

const ENDED = new Set(["completed", "failed"]);

/**
 * The gate's pairwise judgment on the server: started against the baseline (POST /api/v1/runs/{id}/pairwise),
 * followed with a progress bar until it ends. Its result is then read with compare's (in the same correction).
 */
export async function judgePairwiseOnServer(
  client: ApiClient,
  pairwise: GatePairwise,
  baselineId: string,
  candidateId: string,
  options: { quiet: boolean; pollMs: number; log: (line: string) => void },
): Promise<PairwiseDetail> {
  let detail = await client.json(
    "POST",
    `/api/v1/runs/${encodeURIComponent(candidateId)}/pairwise`,
    pairwiseDetailSchema,
    {
      baseline: baselineId,
      criteria: pairwise.criteria,
      orders: pairwise.orders,
    },
  );
  options.log(
    `Pairwise judgment ${detail.id} against the baseline: ${detail.progress.total} judgments (${detail.orders === "both" ? "both orders" : "one order per row"}), judge ${detail.judgeProvider === "heuristic" ? "offline approximation" : detail.judgeModel}.`,
  );
  const bar = options.quiet ? null : createProgressBar(process.stderr, "pairwise");
  while (!ENDED.has(detail.status)) {
    bar?.update(detail.progress.done, detail.progress.total, detail.stopped ? "waiting for a worker" : "");
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
    detail = await client.json("GET", `/api/v1/pairwise/${encodeURIComponent(detail.id)}`, pairwiseDetailSchema);
  }
  bar?.update(detail.progress.done, detail.progress.total, "");
  bar?.finish();
  if (detail.status === "failed") options.log(`Pairwise judgment failed: ${detail.errorMessage ?? "no reason given"}`);
  return detail;
}

/** The candidate's pairwise criteria as compare read them (in its family with the metrics). */
export function pairwiseCriteriaOf(comparison: ServedComparison, candidateId: string): Criterion[] {
  return comparison.pairwise.find((p) => p.candidateRunId === candidateId)?.criteria ?? [];
}

/** Lines for the terminal: each criterion's verdict and its words, then the judge's diagnostics. */
export function pairwiseGateLines(comparison: ServedComparison, candidateId: string): string[] {
  const served = comparison.pairwise.find((p) => p.candidateRunId === candidateId);
  if (!served) return [];
  const lines = served.criteria.map(
    (c) =>
      `${(c.verdict === "worse" ? "REGRESSION" : c.verdict === "better" ? "improvement" : c.verdict === "noise" ? "noise" : "not tested").padEnd(11)} ${c.metric}: ${c.words}`,
  );
  lines.push(...served.criteria.map((c) => `            ${c.metric} judge: ${diagnostics(c)}`));
  if (served.selfPreference) lines.push(`            ${served.selfPreference}`);
  return lines;
}

const percent = (rate: Criterion["winRate"]) => (rate ? `${(rate.value * 100).toFixed(1)}%` : "n/a");

function diagnostics(c: Criterion): string {
  return [
    c.positionConsistency ? `position consistency ${percent(c.positionConsistency)}` : "one order per row",
    `first-shown answer wins ${percent(c.firstShownWinRate)}`,
    `longer answer wins ${percent(c.longerWinRate)}`,
    `ties ${percent(c.tieRate)} (${c.positionDependent} position-dependent)`,
  ].join(", ");
}

/** The Markdown section of the gate's summary: per criterion B's result and the judge's diagnostics. */
export function pairwiseSummaryMarkdown(comparison: ServedComparison, candidateId: string): string[] {
  const served = comparison.pairwise.find((p) => p.candidateRunId === candidateId);
  if (!served) return [];
  const cell = (text: string) => text.replace(/[\r\n]+/g, " ").replace(/\|/g, "\\|");
  return [
    "",
    `### Pairwise judgment (${served.orders === "both" ? "both orders" : "one order per row"}, judge ${served.judgeProvider === "heuristic" ? "offline approximation" : cell(served.judgeModel)})`,
    "",
    "| Criterion | Wins | Losses | Ties | Verdict | Judge diagnostics |",
    "|---|---:|---:|---:|---|---|",
    ...served.criteria.map(
      (c) =>
        `| \`${c.metric}\` | ${c.wins} | ${c.losses} | ${c.ties} | ${c.verdict === "worse" ? "**" : ""}${cell(c.words)}${c.verdict === "worse" ? "**" : ""} | ${cell(diagnostics(c))} |`,
    ),
    ...(served.selfPreference ? ["", `⚠ ${cell(served.selfPreference)}`] : []),
  ];
}
