import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { getRunAggregates } from "@/lib/db/judgments/aggregateQueries";
import { getInputCoverage } from "@/lib/db/datasets/datasetQueries";
import { listRunResultsPage } from "@/lib/db/judgments/resultQueries";
import { getRunRowDetail } from "@/lib/db/runs/runRowQueries";
import { createRun } from "@/lib/engine/createRun";
import { runResultsCsv, runResultsJson } from "@/lib/export/runResults";
import type { Responder } from "../support/fakeOpenAIServer";
import type { FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { importRows, runToCompletion } from "../support/engineKit";
import { fencedContents } from "../support/fenced";
import { openServedDataset } from "../support/servedDataset";

const CONTEXT_RELEVANCE = "retrieval/llm_judged/context_relevance";
const judge = { provider: "openai" as const, model: "judge-model" };

/**
 * Answers context_relevance like a judge the test controls: a chunk is rated by the marker in
 * its text (HIGH, MEDIUM, LOW, else none) and counted as used when it says USED; the request's
 * GAPn marker lists n missing items. Any other request fails the test.
 */
const responder: Responder = (body) => {
  const schemaName: string = body.response_format?.json_schema?.name ?? body.tools?.[0]?.function?.name ?? "";
  if (schemaName !== "context_relevance_assessment") throw new Error(`unexpected judge call: ${schemaName}`);
  const prompt = (body.messages as { role: string; content: string }[]).map((m) => m.content).join("\n");
  const chunks = fencedContents(prompt, "chunk");
  const gaps = Number(/GAP(\d)/.exec(prompt)?.[1] ?? 0);
  return JSON.stringify({
    evaluations: chunks.map((text, i) => ({
      context_index: i + 1,
      reasoning: `piece ${i + 1} rated by its marker`,
      relevance_level: text.includes("HIGH")
        ? "high"
        : text.includes("MEDIUM")
          ? "medium"
          : text.includes("LOW")
            ? "low"
            : "none",
      was_used: text.includes("USED"),
    })),
    missing_context: Array.from({ length: gaps }, (_, i) => `missing fact ${i + 1}`),
    overall_assessment: "Assessed piece by piece.",
  });
};

const ROWS = [
  {
    // Mastra's solar-eclipse example: 0.64 with default penalties, 0.69 with the lenient ones.
    request_id: "eclipse",
    request: "What causes solar eclipses?",
    response: "Solar eclipses happen when the Moon moves between Earth and the Sun, blocking sunlight.",
    expected_response: "Solar eclipses happen when the Moon moves between the Earth and the Sun.",
    retrieved_context: [
      { content: "HIGH USED Solar eclipses occur when the Moon blocks the Sun.", doc_uri: "d1" },
      { content: "HIGH USED The Moon moves between the Earth and Sun during eclipses.", doc_uri: "d2" },
      { content: "MEDIUM The Moon is visible at night.", doc_uri: "d3" },
      { content: "Stars twinkle due to atmospheric interference.", doc_uri: "d4" },
      { content: "HIGH Total eclipses can last up to 7.5 minutes.", doc_uri: "d5" },
    ],
  },
  {
    // Mastra's low-relevance example (0.26) plus one missing item (−0.15): 0.11.
    request_id: "capital",
    request: "What is the capital of Australia? GAP1",
    response: "The capital of Australia is Canberra.",
    expected_response: "The capital of Australia is Canberra.",
    retrieved_context: [
      { content: "The Great Barrier Reef is located in Australia.", doc_uri: "c1" },
      { content: "Coral reefs need warm water to survive.", doc_uri: "c2" },
      { content: "Many fish species live in coral reefs.", doc_uri: "c3" },
      { content: "LOW Australia has six states and two territories.", doc_uri: "c4" },
      { content: "HIGH USED The capital of Australia is Canberra.", doc_uri: "c5" },
    ],
  },
  {
    // No retrieved context: context_relevance is skipped; the statistical scorers still run.
    request_id: "bare",
    request: "Say hello.",
    response: "Hello there",
    expected_response: "Hello there!",
  },
];

describe("score metrics through the engine (context_relevance via the fake server, statistical offline)", () => {
  let db: Db;
  let close: () => Promise<void>;
  let server: FakeOpenAIServer;
  let datasetId: string;

  beforeAll(async () => {
    ({ db, server, datasetId, close } = await openServedDataset(ROWS, { responder }));
  });
  afterAll(async () => close());

  const scoresOf = async (runId: string, metric: string) =>
    Object.fromEntries(
      (
        await db.judgmentItem.findMany({
          where: { runId, metric },
          select: { status: true, score: true, passed: true, threshold: true, row: { select: { requestId: true } } },
        })
      ).map((j) => [j.row.requestId, { status: j.status, score: j.score, passed: j.passed, threshold: j.threshold }]),
    );

  it("scores Mastra's examples from the judge's levels, stores the details and returns them in the drill-down", async () => {
    const { runId, outcome } = await runToCompletion(
      db,
      {
        datasetId,
        metrics: ["context_relevance", "bleu", "levenshtein"],
        judge,
        thresholds: { context_relevance: 0.6 },
      },
      server.url,
    );
    expect(outcome.status).toBe("completed");
    expect(server.stats.totalRequests).toBe(2);
    const scores = await scoresOf(runId, CONTEXT_RELEVANCE);
    expect(scores.eclipse).toEqual({ status: "done", score: 0.64, passed: true, threshold: 0.6 });
    expect(scores.capital).toEqual({ status: "done", score: 0.11, passed: false, threshold: 0.6 });
    expect(scores.bare.status).toBe("skipped");

    const row = await db.datasetRow.findFirstOrThrow({ where: { datasetId, requestId: "eclipse" } });
    const detail = await getRunRowDetail(db, runId, row.id);
    const judgment = detail?.judgments.find((j) => j.metric === CONTEXT_RELEVANCE);
    expect(judgment?.rationale).toMatch(/^The score is 0\.64 because: 5 context pieces \(3 high, 1 medium, 1 none\)/);
    const pieces = judgment?.details?.groups.find((g) => g.title === "Context pieces")?.items ?? [];
    expect(pieces.map((p) => p.verdict)).toEqual(["high", "high", "medium", "none", "high"]);
    expect(pieces[4].tags).toEqual(["context 5", "not used"]);
    expect(pieces[0].text).toContain("Solar eclipses occur");
    expect(judgment?.details?.figures?.usage_penalty).toBeCloseTo(0.1, 12);

    const capitalRow = await db.datasetRow.findFirstOrThrow({ where: { datasetId, requestId: "capital" } });
    const capital = (await getRunRowDetail(db, runId, capitalRow.id))?.judgments.find(
      (j) => j.metric === CONTEXT_RELEVANCE,
    );
    expect(capital?.details?.groups.find((g) => g.title === "Missing information")?.items).toEqual([
      { text: "missing fact 1", verdict: "missing" },
    ]);

    // The result pages the exports read carry the details too.
    const page = await listRunResultsPage(db, runId, datasetId, 0, 10);
    const exported = page.rows
      .find((r) => r.requestId === "eclipse")
      ?.judgments.find((j) => j.metric === CONTEXT_RELEVANCE);
    expect(exported?.details?.groups[0].items).toHaveLength(5);
  });

  it("aggregates as <name>/score/average and <name>/success/percentage, in SQL", async () => {
    const { runId } = await runToCompletion(
      db,
      { datasetId, metrics: ["context_relevance"], judge, thresholds: { context_relevance: 0.6 } },
      server.url,
    );
    const [aggregate] = await getRunAggregates(db, runId);
    expect(aggregate.name).toBe(`${CONTEXT_RELEVANCE}/score/average`);
    expect(aggregate.value).toBeCloseTo((0.64 + 0.11) / 2, 12);
    expect(aggregate.skipped).toBe(1);
    expect(aggregate.success).toEqual({
      name: `${CONTEXT_RELEVANCE}/success/percentage`,
      value: 0.5,
      numerator: 1,
      denominator: 2,
    });
  });

  it("re-scores cached answers with the run's own penalties and scale: 0 calls, 0.69 with the lenient penalties", async () => {
    const before = server.stats.totalRequests;
    const { runId } = await runToCompletion(
      db,
      {
        datasetId,
        metrics: [CONTEXT_RELEVANCE],
        judge,
        contextRelevance: {
          unusedHighRelevanceContext: 0.05,
          missingContextPerItem: 0.1,
          maxMissingContextPenalty: 0.3,
        },
      },
      server.url,
    );
    expect(server.stats.totalRequests).toBe(before);
    const scores = await scoresOf(runId, CONTEXT_RELEVANCE);
    expect(scores.eclipse.score).toBe(0.69);
    // 0.26 − 0.1 for the one missing item.
    expect(scores.capital.score).toBe(0.16);

    // A cache hit carries the intermediate verdicts too: they come from the cached answer.
    const eclipseRow = await db.datasetRow.findFirstOrThrow({ where: { datasetId, requestId: "eclipse" } });
    const cached = (await getRunRowDetail(db, runId, eclipseRow.id))?.judgments.find(
      (j) => j.metric === CONTEXT_RELEVANCE,
    );
    expect(cached?.cacheHit).toBe(true);
    expect(cached?.details?.groups[0].items.map((item) => item.verdict)).toEqual([
      "high",
      "high",
      "medium",
      "none",
      "high",
    ]);
    expect(cached?.details?.figures?.unusedHighRelevanceContext).toBe(0.05);

    const scaled = await runToCompletion(
      db,
      {
        datasetId,
        metrics: [CONTEXT_RELEVANCE],
        judge,
        contextRelevance: { scale: 100 },
        thresholds: { context_relevance: 50 },
      },
      server.url,
    );
    const scaledScores = await scoresOf(scaled.runId, CONTEXT_RELEVANCE);
    expect(scaledScores.eclipse).toEqual({ status: "done", score: 64, passed: true, threshold: 50 });
    // Without a threshold, the default 0.5 is on the run's scale: 50 of 100.
    const scaledDefault = await runToCompletion(
      db,
      { datasetId, metrics: [CONTEXT_RELEVANCE], judge, contextRelevance: { scale: 100 } },
      server.url,
    );
    const defaults = await scoresOf(scaledDefault.runId, CONTEXT_RELEVANCE);
    expect(defaults.eclipse).toEqual({ status: "done", score: 64, passed: true, threshold: 50 });
    expect(defaults.capital).toEqual({ status: "done", score: 11, passed: false, threshold: 50 });
  });

  it("exports carry score, threshold, success, reason, error_message and details", async () => {
    const { runId } = await runToCompletion(
      db,
      { datasetId, metrics: [CONTEXT_RELEVANCE, "rouge"], judge },
      server.url,
    );
    let json = "";
    for await (const piece of runResultsJson(db, runId)) json += piece;
    const parsed = z
      .object({
        aggregates: z.record(z.string(), z.number().nullable()),
        rows: z.array(z.record(z.string(), z.unknown())),
      })
      .parse(JSON.parse(json));
    expect(parsed.aggregates[`${CONTEXT_RELEVANCE}/success/percentage`]).toBe(0.5);
    expect(parsed.aggregates["response/statistical/rouge/score/average"]).not.toBeNull();
    const eclipse = parsed.rows.find((r) => r.request_id === "eclipse") ?? {};
    expect(eclipse[`${CONTEXT_RELEVANCE}/score`]).toBe(0.64);
    expect(eclipse[`${CONTEXT_RELEVANCE}/threshold`]).toBe(0.5);
    expect(eclipse[`${CONTEXT_RELEVANCE}/success`]).toBe(true);
    expect(eclipse[`${CONTEXT_RELEVANCE}/reason`]).toMatch(/^The score is 0\.64/);
    expect(eclipse[`${CONTEXT_RELEVANCE}/error_message`]).toBeNull();
    expect(eclipse[`${CONTEXT_RELEVANCE}/details`]).toMatchObject({ groups: [{ title: "Context pieces" }, {}] });
    expect(eclipse["response/statistical/rouge/details"]).toMatchObject({ figures: { rouge1_f1: expect.any(Number) } });

    let csv = "";
    for await (const piece of runResultsCsv(db, runId)) csv += piece;
    const header = csv.split("\r\n")[0].split(",");
    for (const field of ["score", "threshold", "success", "reason", "error_message", "details"])
      expect(header).toContain(`${CONTEXT_RELEVANCE}/${field}`);
  });

  it("plans hallucination only for rows whose expected_retrieved_context has content (the ideal context)", async () => {
    const ideal = await importRows(db, [
      {
        request_id: "with",
        request: "q1",
        response: "a1",
        expected_retrieved_context: [{ content: "ideal", doc_uri: "i1" }],
      },
      { request_id: "uri-only", request: "q2", response: "a2", expected_retrieved_context: [{ doc_uri: "i2" }] },
    ]);
    expect((await getInputCoverage(db, ideal)).inputs.expected_context_content).toBe(1);
    const runId = await createRun(db, { datasetId: ideal, metrics: ["hallucination"], judge });
    const items = await db.judgmentItem.findMany({
      where: { runId },
      select: { status: true, skipReason: true, row: { select: { requestId: true } } },
    });
    expect(Object.fromEntries(items.map((i) => [i.row.requestId, [i.status, i.skipReason]]))).toEqual({
      with: ["pending", null],
      "uri-only": ["skipped", "needs expected_retrieved_context[].content (the ideal context)"],
    });
  });

  it("plans an LLM-only score metric skipped with the reason on the offline judge; the statistical ones run", async () => {
    const { runId, outcome } = await runToCompletion(
      db,
      { datasetId, metrics: ["context_relevance", "meteor"], judge: { provider: "heuristic", model: "heuristic-v1" } },
      null,
    );
    expect(outcome.status).toBe("completed");
    const items = await db.judgmentItem.findMany({
      where: { runId },
      select: { metric: true, status: true, skipReason: true },
    });
    expect(
      new Set(items.filter((i) => i.metric === CONTEXT_RELEVANCE).map((i) => `${i.status}: ${i.skipReason}`)),
    ).toEqual(
      new Set([
        "skipped: context_relevance needs an LLM judge: the offline heuristic judge has no honest lexical rule for it",
      ]),
    );
    expect(items.filter((i) => i.metric === "response/statistical/meteor").map((i) => i.status)).toEqual([
      "done",
      "done",
      "done",
    ]);
  });

  it("rejects a threshold above 1, except context_relevance's up to its scale", async () => {
    await expect(createRun(db, { datasetId, metrics: ["bleu"], judge, thresholds: { bleu: 2 } })).rejects.toThrow(
      /threshold "response\/statistical\/bleu": 2 is above 1/,
    );
    await expect(
      createRun(db, { datasetId, metrics: [CONTEXT_RELEVANCE], judge, thresholds: { context_relevance: 2 } }),
    ).rejects.toThrow(/above 1 \(the context_relevance scale\)/);
  });
});
