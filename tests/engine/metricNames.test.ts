import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createRun, RunConfigError } from "@/lib/engine/createRun";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
import { importRows } from "../support/engineKit";
import { createTempDb } from "../support/tempDb";

const judge = { provider: "heuristic" as const, model: HEURISTIC_MODEL };

/** The run form's server action and the CLI both create runs through createRun: names resolve there, and only canonical names are stored. */
describe("metric names in run configs", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;
  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    datasetId = await importRows(db, [
      { request: "q", response: "r", retrieved_context: [{ content: "c", doc_uri: "d" }] },
    ]);
  });
  afterAll(() => cleanup());

  it("stores Agent Evaluation's aliases, short names and full names under the canonical names", async () => {
    const runId = await createRun(db, {
      datasetId,
      judge,
      metrics: [
        "agent/input_token_count",
        "agent/output_token_count",
        "retrieval/llm_judged/chunk_relevance_precision",
        "correctness",
        "response/llm_judged/safety",
      ],
      thresholds: { chunk_relevance_precision: 0.6, "response/llm_judged/safety": 1 },
    });
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(JSON.parse(run.config)).toMatchObject({
      metrics: [
        "agent/total_input_token_count",
        "agent/total_output_token_count",
        "retrieval/llm_judged/chunk_relevance",
        "response/llm_judged/correctness",
        "response/llm_judged/safety",
      ],
      thresholds: { "retrieval/llm_judged/chunk_relevance": 0.6, "response/llm_judged/safety": 1 },
    });
    const metrics = (await db.judgmentItem.findMany({ where: { runId }, select: { metric: true } })).map(
      (i) => i.metric,
    );
    expect(new Set(metrics)).toEqual(
      new Set([
        "agent/total_input_token_count",
        "agent/total_output_token_count",
        "retrieval/llm_judged/chunk_relevance",
        "response/llm_judged/correctness",
        "response/llm_judged/safety",
      ]),
    );
  });

  it("rejects unknown metric and threshold names with the valid ones listed; a custom judge's threshold is fine", async () => {
    const error = await createRun(db, { datasetId, judge, metrics: ["fluency"] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunConfigError);
    expect((error as Error).message).toMatch(
      /unknown metric "fluency"; known: correctness, relevance_to_query, .*agent\/input_token_count/,
    );
    // One problem, the list of known metrics whole in it, however many "; " it holds (the API lists problems).
    expect((error as RunConfigError).problems).toHaveLength(1);
    expect((error as RunConfigError).problems[0]).toBe((error as Error).message);
    const threshold = await createRun(db, {
      datasetId,
      judge,
      metrics: ["safety"],
      thresholds: { fluency: 0.5 },
    }).catch((e: unknown) => e);
    expect((threshold as Error).message).toMatch(/threshold "fluency": unknown metric; known: correctness/);
    const custom = {
      assessmentName: "tone",
      assessmentType: "ANSWER" as const,
      instructions: "The response must be polite.",
    };
    await expect(
      createRun(db, { datasetId, judge, customJudges: [custom], thresholds: { tone: 0.5 } }),
    ).resolves.toEqual(expect.any(String));
    const reserved = await createRun(db, {
      datasetId,
      judge,
      customJudges: [{ ...custom, assessmentName: "chunk_relevance_precision", assessmentType: "RETRIEVAL" }],
    }).catch((e: unknown) => e);
    expect((reserved as Error).message).toContain("that name belongs to a built-in judge");
  });
});
