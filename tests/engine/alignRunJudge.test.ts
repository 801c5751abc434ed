import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { listAlignments } from "@/lib/db/alignments/judgeAlignments";
import { AlignmentRefused, alignRunJudge } from "@/lib/engine/alignment/alignRunJudge";
import { createEngineDeps } from "@/lib/engine/engineDeps";
import type { HeldOutComparison } from "@/lib/alignment/heldOutComparison";
import { alignedMetricName } from "@/lib/alignment/alignedDefinition";
import { alignmentHash } from "@/lib/judges/prompts/alignedTemplate";
import type { FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { fakeExampleFollower } from "../support/fakeExampleFollower";
import { fencedContents } from "../support/fenced";
import { fakeLlmConfig, readRun, runToCompletion } from "../support/engineKit";
import { openServedDataset } from "../support/servedDataset";
import { isRudeRow, labelRudeReplies, POLITE_REASON, RUDE_REASON, supportReplies } from "../support/supportReplies";

// Aligning a run's judges with the dataset's labels, end to end on the store: the base run's verdicts,
// the labels read as the agreement panel reads them, the held-out rows judged again by the aligned
// version through the run's own judge backend (the real openai SDK and a fake server that answers like
// the closest labelled example it is shown, and "yes" or its top score without examples), the alignment
// stored with its comparison. A custom judge, a built-in one and a G-Eval judge, each labelled "no" on
// the rude (even) rows, which their default answers miss.

const TONE = "response/llm_judged/tone";
const RELEVANCE = "response/llm_judged/relevance_to_query";
const POLITENESS = "response/llm_judged/g_eval/politeness";

const ROWS = supportReplies(40);

describe("aligning a run's judges with their labels", () => {
  let db: Db;
  let server: FakeOpenAIServer;
  let datasetId: string;
  let close: () => Promise<void>;
  let runId: string;

  beforeAll(async () => {
    ({ db, server, datasetId, close } = await openServedDataset(ROWS, { responder: fakeExampleFollower }));
    ({ runId } = await runToCompletion(
      db,
      {
        datasetId,
        metrics: [RELEVANCE],
        customJudges: [
          { assessmentName: "tone", assessmentType: "ANSWER", instructions: "Is the response polite and helpful?" },
        ],
        gEvalJudges: [{ name: "politeness", criteria: "Is the response polite?", evaluationParams: ["actual_output"] }],
        judge: { provider: "openai", model: "judge-model" },
      },
      server.url,
    ));
    await labelRudeReplies(db, datasetId, { ratings: [TONE, RELEVANCE], scores: [POLITENESS] }, { reasons: true });
  }, 60_000);
  afterAll(async () => close());

  const align = async (metric: string, seed: string) => {
    const run = await readRun(db, runId);
    const { judge, costOf } = createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) });
    return alignRunJudge(db, run, { judge, costOf, progressEveryMs: 0 }, { metric, seed });
  };

  it("a custom judge: stores the aligned version, measured on the held-out labels only: agrees more (real)", async () => {
    const before = server.requests.length;
    const aligned = await align(TONE, "first");
    const comparison = aligned.comparison as HeldOutComparison;
    expect(aligned).toMatchObject({ version: 1, status: "measured", metric: TONE, baseRunId: runId });
    expect(aligned.judgeName).toBe("tone_aligned_v1");
    expect(aligned.heldOutKeys).toHaveLength(16);
    expect(aligned.progress).toMatchObject({ done: 16, total: 16 });
    expect(aligned.spent.llmCalls).toBe(16);
    expect(aligned.examples.length).toBeGreaterThan(1);
    expect(aligned.examples.every((e) => aligned.trainingKeys.includes(e.key))).toBe(true);
    // Each example carries the labeller's reason, as the prompt shows it.
    expect(new Set(aligned.examples.map((e) => e.reason))).toEqual(new Set([RUDE_REASON, POLITE_REASON]));
    expect([comparison.original.rawAgreement, comparison.aligned.rawAgreement]).toEqual([0.5, 1]);
    expect(comparison.verdict).toBe("agrees more (real)");
    // What the server was sent: one call per held-out row, and no held-out row among any prompt's examples.
    const sent = server.requests.slice(before).map((r) => String(r.body.messages[1].content));
    expect(sent).toHaveLength(16);
    expect(sent[0]).toContain(`The person's answer: no\nTheir reason: ${RUDE_REASON}`);
    const heldOutRows = await db.datasetRow.findMany({
      where: { id: { in: aligned.heldOutKeys } },
      select: { requestText: true },
    });
    for (const prompt of sent)
      for (const example of fencedContents(prompt, "example"))
        expect(heldOutRows.some((row) => example.includes(`Request: ${row.requestText}\n`))).toBe(false);
  });

  it("keeps the first alignment's held-out rows out of a second one's training", async () => {
    const first = (await listAlignments(db, datasetId, TONE))[0];
    const second = await align(TONE, "second");
    expect(second.version).toBe(2);
    expect(second.trainingKeys.some((key) => first.heldOutKeys.includes(key))).toBe(false);
    expect(first.heldOutKeys.every((key) => second.heldOutKeys.includes(key))).toBe(true);
  });

  it("a built-in judge: its aligned version is a custom judge based on it, judged by the built-in's prompt", async () => {
    const before = server.requests.length;
    const aligned = await align(RELEVANCE, "first");
    expect((aligned.comparison as HeldOutComparison).verdict).toBe("agrees more (real)");
    expect(aligned.definition).toMatchObject({
      type: "custom",
      judge: { assessmentName: "relevance_to_query_aligned_v1", assessmentType: "ANSWER", basedOn: RELEVANCE },
    });
    expect(alignedMetricName(aligned.definition)).toBe("response/llm_judged/relevance_to_query_aligned_v1");
    const schemas = server.requests.slice(before).map((r) => r.body.response_format?.json_schema?.name);
    expect(new Set(schemas)).toEqual(new Set(["relevance_verdict"]));
  });

  it("a G-Eval judge: its aligned version scores like the people's pass and fail at its pass mark", async () => {
    const aligned = await align(POLITENESS, "first");
    const comparison = aligned.comparison as HeldOutComparison;
    expect(comparison.verdict).toBe("agrees more (real)");
    expect([comparison.original.rawAgreement, comparison.aligned.rawAgreement]).toEqual([0.5, 1]);
    expect(aligned.definition).toMatchObject({ type: "g_eval", judge: { name: "politeness_aligned_v1" } });
  });

  it("runs an adopted alignment as a judge of its own: its examples in the prompt, its verdicts the people's", async () => {
    const aligned = (await listAlignments(db, datasetId, RELEVANCE))[0];
    if (aligned.definition.type !== "custom") throw new Error("a built-in judge's aligned version is a custom judge");
    const before = server.requests.length;
    const { runId: adoptedRun, outcome } = await runToCompletion(
      db,
      {
        datasetId,
        customJudges: [
          {
            ...aligned.definition.judge,
            alignment: { examples: aligned.examples, guidance: "Brushing the user off is not helpful." },
          },
        ],
        judge: { provider: "openai", model: "judge-model" },
      },
      server.url,
    );
    expect(outcome.status).toBe("completed");
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(40);
    expect(String(sent[0].body.messages[0].content)).toContain(
      "Guidance from the people who labelled this judge's rows:\nBrushing the user off is not helpful.",
    );
    expect(String(sent[0].body.messages[1].content)).toMatch(/<untrusted_example_[0-9a-f]{12} index="1">/);
    const judgments = await db.judgmentItem.findMany({
      where: { runId: adoptedRun },
      select: { rating: true, promptVersion: true, row: { select: { rowNumber: true } } },
    });
    const suffix = `+aligned/${alignmentHash({ examples: aligned.examples, guidance: "Brushing the user off is not helpful." })}`;
    expect(suffix).not.toBe(aligned.promptSuffix);
    expect(new Set(judgments.map((j) => j.promptVersion))).toEqual(new Set([`relevance_to_query/v4${suffix}`]));
    expect(judgments.every((j) => j.rating === (isRudeRow(j.row.rowNumber) ? "no" : "yes"))).toBe(true);
  });

  it("stops at the spending limit with the units left unjudged, and fails saying so; what it spent is kept", async () => {
    const run = await readRun(db, runId);
    const { judge } = createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) });
    // A cent a token (hundreds of dollars a call), at most $3: the run's 8 lanes start 8 calls before any has
    // cost anything; after that no call starts.
    const aligned = await alignRunJudge(
      db,
      run,
      { judge, costOf: (_model, usage) => (usage ? usage.inputTokens / 100 : null), maxUsd: 3 },
      { metric: TONE, seed: "budget" },
    );
    expect(aligned.status).toBe("failed");
    expect(aligned.errorMessage).toMatch(
      /^measuring reached this server's limit of \$3 per run \(ASSAY_MAX_RUN_USD\) with \d+ of \d+ held-out units not judged/,
    );
    expect(aligned.spent.llmCalls).toBe(8);
    expect(aligned.spent.costUsd).toBeGreaterThan(3);
    expect(aligned.errorMessage).toContain(`with ${aligned.heldOutKeys.length - 8} of ${aligned.heldOutKeys.length}`);
  });

  it("refuses a judge that is not one of the run's judges, and an aligned one", async () => {
    await expect(align("response/llm_judged/g_eval/x", "s")).rejects.toBeInstanceOf(AlignmentRefused);
    await expect(align("response/llm_judged/safety", "s")).rejects.toThrow(/not a judge of this run/);
  });
});
