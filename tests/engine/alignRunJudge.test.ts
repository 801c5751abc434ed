import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { listAlignments } from "@/lib/db/alignments/judgeAlignments";
import { writeLabels } from "@/lib/db/labels/labelWrites";
import { AlignmentRefused, alignRunJudge } from "@/lib/engine/alignRunJudge";
import { createEngineDeps } from "@/lib/engine/engineDeps";
import type { HeldOutComparison } from "@/lib/alignment/heldOutComparison";
import { alignmentHash } from "@/lib/judges/prompts/alignedTemplate";
import type { FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { fakeExampleFollower } from "../support/fakeExampleFollower";
import { fakeLlmConfig, readRun, runToCompletion } from "../support/engineKit";
import { openServedDataset } from "../support/servedDataset";

// Aligning a run's custom judge with the dataset's labels, end to end on the store: the base run's
// verdicts, the labels read as the agreement panel reads them, the held-out rows judged again by the
// aligned version through the run's own judge backend (the real openai SDK and a fake server that
// answers like the closest labelled example it is shown), the alignment stored with its comparison.

const TONE = "response/llm_judged/tone";

const ROWS = Array.from({ length: 40 }, (_, i) => ({
  request_id: `t${i + 1}`,
  request: `Can you help with order ${i + 1}?`,
  response: i % 2 === 1 ? `Figure it out yourself, not my problem.` : `Glad to help: here is what to do next.`,
}));

describe("aligning a run's custom judge with its labels", () => {
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
        customJudges: [
          { assessmentName: "tone", assessmentType: "ANSWER", instructions: "Is the response polite and helpful?" },
        ],
        judge: { provider: "openai", model: "judge-model" },
      },
      server.url,
    ));
    const rows = await db.datasetRow.findMany({ where: { datasetId }, select: { id: true, rowNumber: true } });
    await writeLabels(
      db,
      datasetId,
      rows.map((row) => ({
        rowId: row.id,
        entries: [
          {
            metric: TONE,
            chunkPosition: -1,
            value: { kind: "rating" as const, rating: row.rowNumber % 2 === 0 ? ("no" as const) : ("yes" as const) },
          },
        ],
      })),
      { labelledBy: null, source: "upload" },
    );
  }, 60_000);
  afterAll(async () => close());

  const align = async (seed: string) => {
    const run = await readRun(db, runId);
    const { judge } = createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) });
    return alignRunJudge(db, run, judge, { metric: TONE, seed });
  };

  it("stores the aligned version, measured on the held-out labels: agrees more (real)", async () => {
    const aligned = await align("first");
    const comparison = aligned.comparison as HeldOutComparison;
    expect(aligned).toMatchObject({ version: 1, status: "measured", metric: TONE, baseRunId: runId });
    expect(aligned.heldOutKeys).toHaveLength(16);
    expect(aligned.examples.length).toBeGreaterThan(1);
    expect(aligned.examples.every((e) => aligned.trainingKeys.includes(e.key))).toBe(true);
    expect([comparison.original.rawAgreement, comparison.aligned.rawAgreement]).toEqual([0.5, 1]);
    expect(comparison.verdict).toBe("agrees more (real)");
  });

  it("keeps the first alignment's held-out rows out of a second one's training", async () => {
    const first = (await listAlignments(db, datasetId, TONE))[0];
    const second = await align("second");
    expect(second.version).toBe(2);
    expect(second.trainingKeys.some((key) => first.heldOutKeys.includes(key))).toBe(false);
    expect(first.heldOutKeys.every((key) => second.heldOutKeys.includes(key))).toBe(true);
  });

  it("runs an adopted alignment as a judge of its own: its examples in the prompt, its verdicts the people's", async () => {
    const aligned = (await listAlignments(db, datasetId, TONE)).find((a) => a.version === 1);
    if (!aligned) throw new Error("no alignment stored");
    const before = server.requests.length;
    const { runId: adoptedRun, outcome } = await runToCompletion(
      db,
      {
        datasetId,
        customJudges: [
          {
            assessmentName: "tone_aligned_1",
            assessmentType: "ANSWER",
            instructions: "Is the response polite and helpful?",
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
    // The version names the examples and this guidance (the stored alignment had none: another hash).
    const suffix = `+aligned/${alignmentHash({ examples: aligned.examples, guidance: "Brushing the user off is not helpful." })}`;
    expect(suffix).not.toBe(aligned.promptSuffix);
    expect(new Set(judgments.map((j) => j.promptVersion))).toEqual(new Set([`custom.answer/v4${suffix}`]));
    // The people's line on every row: no to the even (rude) rows, yes to the others.
    expect(judgments.every((j) => j.rating === (j.row.rowNumber % 2 === 0 ? "no" : "yes"))).toBe(true);
  });

  it("refuses a judge that is not one of the run's yes/no judges", async () => {
    const run = await readRun(db, runId);
    const { judge } = createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) });
    await expect(
      alignRunJudge(db, run, judge, { metric: "response/llm_judged/g_eval/x", seed: "s" }),
    ).rejects.toBeInstanceOf(AlignmentRefused);
  });
});
