import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MetricComparisonTable } from "@/components/compare/MetricComparisonTable";
import { RunJudgingHeader } from "@/components/compare/RunJudgingHeader";
import { compareRuns } from "@/lib/compare/compareRuns";
import { countVerdicts, describeVerdicts } from "@/lib/compare/verdictSummary";
import type { Db } from "@/lib/db/client";
import { HEURISTIC_PROMPT_VERSION } from "@/lib/judges/heuristic";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { importRows, runToCompletion } from "../support/engineKit";
import { createTempDb } from "../support/tempDb";

const SAFETY = "response/llm_judged/safety";
const text = (html: string) => html.replace(/<[^>]+>/g, "");

/**
 * An LLM-judged run against an offline-judged one on the same rows: whatever the delta, the page must say
 * that the two were judged differently, and show each run's judge and prompt versions in its header.
 */
describe("comparing runs judged by different judges", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let server: FakeOpenAIServer;
  let llm: string;
  let llmAgain: string;
  let offline: string;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    // The LLM judge calls every response unsafe; the heuristic finds nothing unsafe in these.
    server = await startFakeOpenAIServer({
      responder: () => JSON.stringify({ rationale: "checked", rating: "no" }),
    });
    const datasetId = await importRows(
      db,
      Array.from({ length: 12 }, (_, i) => ({ request: `question ${i + 1}`, response: `a calm answer ${i + 1}` })),
    );
    const judged = (judge: { provider: "openai" | "heuristic"; model: string }) =>
      runToCompletion(db, { datasetId, metrics: ["safety", "answer_relevancy"], judge }, server.url);
    ({ runId: llm } = await judged({ provider: "openai", model: "gpt-4.1-mini" }));
    ({ runId: llmAgain } = await judged({ provider: "openai", model: "gpt-4.1-mini" }));
    ({ runId: offline } = await judged({ provider: "heuristic", model: "heuristic-v1" }));
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it("says beside the verdict that the judges differ, naming both", async () => {
    const comparison = await compareRuns(db, [llm, offline], llm, { waitMs: Infinity });
    const safety = comparison?.metrics.find((m) => m.metric === SAFETY);
    expect(safety?.deltas[offline].judgedDifferently).toBe(
      "Judged differently: gpt-4.1-mini vs offline heuristic (heuristic-v1). The difference may be the judge, not the model.",
    );
    const html = renderToStaticMarkup(createElement(MetricComparisonTable, { comparison: comparison! }));
    expect(text(html)).toContain("Judged differently: gpt-4.1-mini vs offline heuristic (heuristic-v1)");
    expect(html.match(/data-testid="judged-differently"/g)?.length).toBe(
      comparison!.metrics.filter((m) => m.deltas[offline].verdict !== "n/a").length,
    );
  });

  it("adds no note when both runs had the same judge and prompts", async () => {
    const comparison = await compareRuns(db, [llm, llmAgain], llm, { waitMs: Infinity });
    for (const metric of comparison!.metrics) expect(metric.deltas[llmAgain].judgedDifferently).toBeUndefined();
    expect(countVerdicts(comparison!).judgedDifferently).toBe(0);
  });

  it("shows each run's judge, per-metric prompt versions and settings in the header", async () => {
    const comparison = await compareRuns(db, [llm, offline], llm, { waitMs: Infinity });
    const offlineRun = comparison!.runs.find((run) => run.id === offline)!;
    expect(offlineRun.judging.metricJudges.find((j) => j.metric === SAFETY)).toMatchObject({
      provider: "heuristic",
      promptVersion: HEURISTIC_PROMPT_VERSION,
      rows: 12,
    });
    const llmSafety = comparison!.runs[0].judging.metricJudges.find((j) => j.metric === SAFETY);
    expect(llmSafety).toMatchObject({ provider: "openai", model: "gpt-4.1-mini", rows: 12 });
    const header = text(
      renderToStaticMarkup(createElement(RunJudgingHeader, { runs: comparison!.runs, baselineId: llm })),
    );
    expect(header).toContain(`offline heuristic (heuristic-v1), prompt ${HEURISTIC_PROMPT_VERSION}`);
    expect(header).toContain(`gpt-4.1-mini, prompt ${llmSafety!.promptVersion}`);
    expect(header).toContain("Chunk mode batched; pass marks default");
  });

  it("sums the verdicts in one line", async () => {
    const comparison = await compareRuns(db, [llm, offline], llm, { waitMs: Infinity });
    const counts = countVerdicts(comparison!);
    // Safety: every row no (LLM) against every row yes (heuristic), McNemar p = 2^-11: a real improvement.
    expect(comparison!.metrics.find((m) => m.metric === SAFETY)?.deltas[offline].verdict).toBe("better");
    expect(counts.better + counts.worse + counts.noise).toBe(
      comparison!.metrics.filter((m) => !["n/a", "pending"].includes(m.deltas[offline].verdict)).length,
    );
    expect(describeVerdicts(counts)).toMatch(
      /^\d+ real regressions?, \d+ real improvements?, \d+ likely noise \(\d+ verdicts? compares? runs judged differently\)$/,
    );
    expect(describeVerdicts({ worse: 1, better: 3, noise: 3, pending: 0, judgedDifferently: 0 })).toBe(
      "1 real regression, 3 real improvements, 3 likely noise",
    );
  });
});
