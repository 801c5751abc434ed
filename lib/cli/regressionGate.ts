import fs from "node:fs";
import { runListSchema } from "@/lib/api/apiSchemas";
import { comparisonSchema } from "@/lib/api/compareSchemas";
import { ApiClientError, type ApiClient } from "./apiClient";
import type { MetricStatistics, ServedComparison } from "./servedComparison";
import { candidateStatistics, correctionWords, gateLines, gateSummaryMarkdown } from "./gateSummary";
import type { Correction } from "@/lib/stats";
import type { GatePairwise } from "./pairwiseArgs";
import { judgePairwiseOnServer, pairwiseCriteriaOf, pairwiseGateLines } from "./pairwiseGate";

export type { MetricStatistics, ServedComparison } from "./servedComparison";

/** `--baseline`: a run id, or the newest completed run carrying a tag (`latest:branch=main`). */
export type BaselineSpec = { runId: string } | { latestTag: string };

export function parseBaselineSpec(text: string): BaselineSpec | null {
  const spec = text.trim();
  if (spec.startsWith("latest:")) {
    const tag = spec.slice("latest:".length).trim();
    return tag ? { latestTag: tag } : null;
  }
  return spec && !/\s/.test(spec) ? { runId: spec } : null;
}

/**
 * The baseline run's id. `latest:TAG` is the newest completed run with that tag other than the candidate
 * itself; null when there is none yet (a branch's first build has nothing to compare with). A run id must exist.
 */
export async function resolveBaseline(client: ApiClient, spec: BaselineSpec, candidateId: string) {
  if ("runId" in spec) return spec.runId;
  const query = new URLSearchParams({ tag: spec.latestTag, status: "completed" });
  const { runs } = await client.json("GET", `/api/v1/runs?${query}`, runListSchema);
  return runs.find((run) => run.id !== candidateId)?.id ?? null;
}

/** The server's comparison of the candidate with the baseline at `alpha`, with the first `flips` flipped rows. */
export async function fetchComparison(
  client: ApiClient,
  baselineId: string,
  candidateId: string,
  options: { alpha: number; correction: Correction; flips: number },
): Promise<ServedComparison> {
  const query = new URLSearchParams({
    runs: `${baselineId},${candidateId}`,
    baseline: baselineId,
    alpha: String(options.alpha),
    correction: options.correction,
    flips: String(options.flips),
  });
  try {
    return await client.json("GET", `/api/v1/compare?${query}`, comparisonSchema);
  } catch (error) {
    if (error instanceof ApiClientError && error.status === 404)
      throw new ApiClientError(404, "not_found", `baseline run ${baselineId} does not exist on the server`);
    throw error;
  }
}

/**
 * The gate's decision: the metrics whose paired test shows a real regression at the comparison's level after
 * the correction for the metrics compared (exact McNemar for yes/no, the paired bootstrap or normal test for
 * scores; "worse" already knows which direction is better). An improvement, likely noise, or a metric with
 * nothing paired never fails it.
 */
export function regressedMetrics(comparison: ServedComparison, candidateId: string): MetricStatistics[] {
  return candidateStatistics(comparison, candidateId).filter((s) => s.verdict === "worse");
}

export type GateIo = { log: (line: string) => void; env?: NodeJS.ProcessEnv; quiet?: boolean; pollMs?: number };

/**
 * Runs the gate for a finished run: finds the baseline, asks the server for the comparison, prints one line
 * per metric, writes the Markdown summary (--summary-md, and appended to $GITHUB_STEP_SUMMARY as GitHub
 * expects), and says whether a metric really regressed.
 */
export async function runRegressionGate(
  gate: { baseline: BaselineSpec; alpha: number; correction: Correction; summaryMd?: string; pairwise?: GatePairwise },
  client: ApiClient,
  candidateId: string,
  thresholdMisses: string[],
  io: GateIo,
): Promise<{ regressed: boolean }> {
  const baselineId = await resolveBaseline(client, gate.baseline, candidateId);
  if (!baselineId) {
    const tag = "latestTag" in gate.baseline ? gate.baseline.latestTag : "";
    const words = `No completed run tagged ${tag} yet: nothing to compare with, so the regression gate passes.`;
    io.log(`\n${words}`);
    await writeSummary(gate.summaryMd, `## Assay regression gate\n\n${words}\n`, io);
    return { regressed: false };
  }
  // The pairwise judgment first: compare then reads its verdict in the same family as the metrics.
  if (gate.pairwise)
    await judgePairwiseOnServer(client, gate.pairwise, baselineId, candidateId, {
      quiet: io.quiet ?? false,
      pollMs: io.pollMs ?? 1000,
      log: io.log,
    });
  const comparison = await fetchComparison(client, baselineId, candidateId, {
    alpha: gate.alpha,
    correction: gate.correction,
    flips: 10,
  });
  const baselineName = comparison.runs.find((run) => run.id === baselineId)?.name ?? baselineId;
  io.log(
    `\nRegression gate against "${baselineName}" (${baselineId}), alpha ${gate.alpha}, ${correctionWords(comparison, candidateId)}:`,
  );
  for (const line of [...gateLines(comparison, candidateId), ...pairwiseGateLines(comparison, candidateId)])
    io.log(line);
  const regressed = [
    ...regressedMetrics(comparison, candidateId).map((s) => s.metric),
    ...pairwiseCriteriaOf(comparison, candidateId)
      .filter((c) => c.verdict === "worse")
      .map((c) => c.metric),
  ];
  io.log(
    regressed.length > 0
      ? `Real regression on ${regressed.join(", ")}.`
      : "No real regression: every change is an improvement or likely noise.",
  );
  io.log(`Side by side: ${client.base}${comparison.url}`);
  await writeSummary(gate.summaryMd, gateSummaryMarkdown(comparison, candidateId, client.base, thresholdMisses), io);
  return { regressed: regressed.length > 0 };
}

async function writeSummary(file: string | undefined, markdown: string, io: GateIo): Promise<void> {
  if (file) {
    await fs.promises.writeFile(file, markdown);
    io.log(`Summary written to ${file}`);
  }
  const stepSummary = (io.env ?? process.env).GITHUB_STEP_SUMMARY;
  if (stepSummary) await fs.promises.appendFile(stepSummary, `${markdown}\n`);
}
