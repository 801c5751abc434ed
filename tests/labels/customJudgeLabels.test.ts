import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRunAgreement } from "@/lib/db/labels/agreementQueries";
import type { Db } from "@/lib/db/client";
import { getRowLabels } from "@/lib/db/labels/labelQueries";
import { listRunRows } from "@/lib/db/runs/runRowQueries";
import { runExportMeta, runResultRecords } from "@/lib/export/runResults";
import { formatAgreementTable } from "@/lib/labels/agreementTable";
import { compareRunAgreement } from "@/lib/labels/compareAgreement";
import { datasetJudgeLabels } from "@/lib/labels/datasetJudges";
import { importLabelFile } from "@/lib/labels/labelImport";
import { getLabellingQueue } from "@/lib/labels/labellingQueue";
import { saveRowLabel } from "@/lib/labels/saveLabel";
import { parseHumanLabels } from "@/lib/ingest/humanLabels";
import { parseRunRowQuery } from "@/lib/urlState/runRowQuery";
import type { Responder } from "../support/fakeOpenAIServer";
import { runToCompletion } from "../support/engineKit";
import { openServedDataset } from "../support/servedDataset";
import { rowIdsByNumber } from "./seedRuns";

// Custom (ANSWER / RETRIEVAL) and G-Eval judges are defined by a run, not the catalogue: they take
// labels once a run on the dataset defines them, and every label path (drill-down, import, queue,
// agreement, rows table, export) knows them. The judgments come from the real engine: G-Eval through
// the fake OpenAI server, the custom judges from the offline heuristic judge.

const CLARITY = "response/llm_judged/g_eval/clarity";
const MENTIONS = "response/llm_judged/mentions_clear";
const POLICY = "retrieval/llm_judged/cites_policy";

const responder: Responder = (body) => {
  const name = body.response_format?.json_schema?.name;
  if (name === "g_eval_steps") return JSON.stringify({ steps: ["Read it.", "Score 1-5."] });
  if (name === "g_eval_score") {
    const prompt = (body.messages as { content: string }[]).map((m) => m.content).join("\n");
    // 5 → 1.0 (pass at 0.6), 2 → 0.25 (fail).
    return JSON.stringify({ score: prompt.includes("RAMBLING") ? 2 : 5, reason: "judged by the fake" });
  }
  return undefined;
};

const chunks = (...texts: string[]) => texts.map((content, i) => ({ content, doc_uri: `doc-${i}` }));

describe("labels on a run's custom and G-Eval judges", () => {
  let db: Db;
  let close: () => Promise<void>;
  let datasetId: string;
  let gEvalRunId: string;
  let customRunId: string;
  let rows: Map<number, string>;

  beforeAll(async () => {
    let server;
    ({ db, server, datasetId, close } = await openServedDataset(
      [
        {
          request_id: "a",
          request: "Q1?",
          response: "A clear answer.",
          retrieved_context: chunks("The policy says so.", "Weather"),
        },
        {
          request_id: "b",
          request: "Q2?",
          response: "RAMBLING words here.",
          retrieved_context: chunks("Cats", "policy text"),
        },
        { request_id: "c", request: "Q3?", response: "Another clear one.", retrieved_context: chunks("Nothing") },
      ],
      { responder },
    ));
    ({ runId: gEvalRunId } = await runToCompletion(
      db,
      {
        datasetId,
        gEvalJudges: [
          {
            name: "clarity",
            criteria: "Is the answer clear?",
            evaluationParams: ["input", "actual_output"],
            threshold: 0.6,
          },
        ],
        judge: { provider: "openai", model: "fake-judge" },
      },
      server.url,
    ));
    ({ runId: customRunId } = await runToCompletion(
      db,
      {
        datasetId,
        customJudges: [
          {
            assessmentName: "mentions_clear",
            assessmentType: "ANSWER",
            instructions: 'The response must mention "clear".',
          },
          {
            assessmentName: "cites_policy",
            assessmentType: "RETRIEVAL",
            instructions: 'The chunk must mention "policy".',
          },
        ],
        judge: { provider: "heuristic", model: "heuristic" },
      },
      null,
    ));
    rows = await rowIdsByNumber(db, datasetId);
  }, 60_000);
  afterAll(async () => close());

  const save = (row: number, metric: string, value: unknown, chunkPosition?: number) =>
    saveRowLabel(db, {
      datasetId,
      rowId: rows.get(row) ?? "",
      metric,
      value,
      labelledBy: "reviewer",
      ...(chunkPosition === undefined ? {} : { chunkPosition }),
    });

  it("knows the dataset's run judges and their label kinds from the definitions", async () => {
    expect(await datasetJudgeLabels(db, datasetId)).toEqual([
      { metric: MENTIONS, kind: "rating", threshold: null },
      { metric: POLICY, kind: "chunk_rating", threshold: null },
      { metric: CLARITY, kind: "score", threshold: 0.6 },
    ]);
  });

  it("stores what the engine gives each: a rating, per-chunk ratings, a score with the judge's threshold", async () => {
    const items = await db.judgmentItem.findMany({ where: { runId: { in: [gEvalRunId, customRunId] } } });
    const of = (metric: string) => items.filter((item) => item.metric === metric);
    expect(
      of(CLARITY)
        .map((item) => [item.score, item.threshold, item.passed])
        .sort(),
    ).toEqual([
      [0.25, 0.6, false],
      [1, 0.6, true],
      [1, 0.6, true],
    ]);
    expect(of(MENTIONS).every((item) => item.rating === "yes" || item.rating === "no")).toBe(true);
    expect(await db.chunkJudgment.count({ where: { runId: customRunId, metric: POLICY } })).toBe(5);
  });

  it("refuses a label of the wrong kind, or on a judge no run on the dataset defines, saying why", async () => {
    expect(await save(1, CLARITY, "yes")).toEqual({ ok: false, error: "expected a number from 0 to 1" });
    expect(await save(1, MENTIONS, 0.5)).toEqual({ ok: false, error: 'expected "yes" or "no"' });
    expect(await save(1, POLICY, "yes")).toEqual({
      ok: false,
      error: `${POLICY} is labelled per chunk: say which chunk`,
    });
    const unknown = await save(1, "response/llm_judged/g_eval/tone", 0.5);
    expect(unknown).toMatchObject({
      ok: false,
      error: expect.stringContaining("not a judge of any run on this dataset"),
    });
    expect(await getRowLabels(db, rows.get(1) ?? "")).toEqual([]);
  });

  it("an upload's human_labels refuses a custom judge's name (no run defines it yet), naming the column", () => {
    const parsed = parseHumanLabels({ mentions_clear: "yes" }, { row: 4, line: 4, format: "json" }, 1);
    expect(parsed.entries).toEqual([]);
    expect(parsed.issues).toEqual([
      { row: 4, line: 4, column: "human_labels", message: expect.stringContaining('unknown metric "mentions_clear"') },
    ]);
    const full = parseHumanLabels({ [MENTIONS]: "yes" }, { row: 5, line: 5, format: "json" }, 1);
    expect(full.issues[0].message).toContain("custom and G-Eval judges are defined by a run");
  });

  it("labels them (short names too), measures agreement, κ and the confusion matrix per judge on each run", async () => {
    // G-Eval: judge passes a (1.0), fails b (0.25), passes c (1.0) at 0.6.
    expect(await save(1, CLARITY, 0.9)).toMatchObject({ ok: true });
    expect(await save(2, "g_eval/clarity", 0.8)).toMatchObject({ ok: true });
    expect(await save(3, CLARITY, 0.2)).toMatchObject({ ok: true });
    expect(await save(1, "mentions_clear", "yes")).toMatchObject({ ok: true });
    expect(await save(2, MENTIONS, "yes")).toMatchObject({ ok: true });
    expect(await save(1, POLICY, "yes", 0)).toMatchObject({ ok: true });
    expect(await save(1, POLICY, "yes", 1)).toMatchObject({ ok: true });

    const gEval = (await getRunAgreement(db, { id: gEvalRunId, datasetId })).find((row) => row.metric === CLARITY);
    expect(gEval).toMatchObject({ kind: "score", perChunk: false, labelled: 3, errors: 0 });
    expect(gEval?.confusion).toEqual({ yesYes: 1, yesNo: 1, noYes: 1, noNo: 0 });
    expect(gEval?.scores?.meanAbsoluteDifference).toBeCloseTo((0.1 + 0.55 + 0.8) / 3, 10);

    const custom = await getRunAgreement(db, { id: customRunId, datasetId });
    const answer = custom.find((row) => row.metric === MENTIONS);
    // The heuristic judge: a says "clear" (yes), b does not (no); the person said yes to both.
    expect(answer).toMatchObject({ kind: "rating", perChunk: false, labelled: 2 });
    expect(answer?.confusion).toEqual({ yesYes: 1, yesNo: 0, noYes: 1, noNo: 0 });
    const retrieval = custom.find((row) => row.metric === POLICY);
    // Chunk 0 of a mentions "policy" (yes/yes); chunk 1 does not (judge no, person yes).
    expect(retrieval).toMatchObject({ kind: "rating", perChunk: true, labelled: 2 });
    expect(retrieval?.confusion).toEqual({ yesYes: 1, yesNo: 0, noYes: 1, noNo: 0 });
    // The CLI's table names them like any judge.
    const table = formatAgreementTable(custom);
    expect(table).toContain(MENTIONS);
    expect(table).toContain(`${POLICY} (per chunk)`);
  });

  it("a second run defining a judge of the same name shares its labels", async () => {
    const { runId } = await runToCompletion(
      db,
      {
        datasetId,
        customJudges: [
          {
            assessmentName: "mentions_clear",
            assessmentType: "ANSWER",
            instructions: 'The response must mention "answer".',
          },
        ],
        judge: { provider: "heuristic", model: "heuristic" },
      },
      null,
    );
    const again = (await getRunAgreement(db, { id: runId, datasetId })).find((row) => row.metric === MENTIONS);
    // "answer" is in a (A clear answer.) but not b: same labels, this run's own verdicts.
    expect(again).toMatchObject({ labelled: 2 });
    expect(again?.confusion).toEqual({ yesYes: 1, yesNo: 0, noYes: 1, noNo: 0 });
    // The compare page's table puts both versions of the judge side by side on the same labels.
    const compared = await compareRunAgreement(db, { id: customRunId, datasetId }, { id: runId, datasetId });
    const row = compared.find((entry) => entry.metric === MENTIONS);
    expect([row?.a.labelled, row?.b.labelled]).toEqual([2, 2]);
    expect(row?.paired).not.toBeNull();
  });

  it("queues their rows (per chunk for a RETRIEVAL judge) on the run that defines them, and only there", async () => {
    const answer = await getLabellingQueue(db, { id: customRunId }, "mentions_clear", { target: 10 });
    if ("error" in answer) throw new Error(answer.error);
    expect(answer.labelled).toBe(2);
    expect(answer.next.map((unit) => unit.rowNumber)).toEqual([3]);
    const chunkQueue = await getLabellingQueue(db, { id: customRunId }, POLICY, { target: 10 });
    if ("error" in chunkQueue) throw new Error(chunkQueue.error);
    expect(chunkQueue.next.map((unit) => `${unit.rowNumber}:${unit.chunkPosition}`).sort()).toEqual([
      "2:0",
      "2:1",
      "3:0",
    ]);
    const score = await getLabellingQueue(db, { id: gEvalRunId }, CLARITY, { target: 10 });
    if ("error" in score) throw new Error(score.error);
    expect(score.labelled).toBe(3);
    expect(await getLabellingQueue(db, { id: gEvalRunId }, MENTIONS)).toMatchObject({
      error: expect.stringContaining("not a judge of any run on this dataset"),
    });
  });

  it("shows each label beside the verdict in the rows table, marking disagreements, in the page query", async () => {
    const page = await listRunRows(db, { id: gEvalRunId, datasetId }, parseRunRowQuery({}));
    const byId = new Map(page.items.map((item) => [item.requestId, item]));
    expect(byId.get("a")?.labels[CLARITY]).toEqual({
      text: "0.90",
      disagrees: false,
      chunks: null,
      otherResponse: false,
    });
    expect(byId.get("b")?.labels[CLARITY]).toEqual({
      text: "0.80",
      disagrees: true,
      chunks: null,
      otherResponse: false,
    });
    expect(byId.get("c")?.labels[CLARITY]).toEqual({
      text: "0.20",
      disagrees: true,
      chunks: null,
      otherResponse: false,
    });
    const custom = await listRunRows(db, { id: customRunId, datasetId }, parseRunRowQuery({}));
    const a = custom.items.find((item) => item.requestId === "a");
    expect(a?.labels[MENTIONS]).toEqual({ text: "yes", disagrees: false, chunks: null, otherResponse: false });
    expect(a?.labels[POLICY]).toEqual({ text: "2 of 2 yes", disagrees: true, chunks: 2, otherResponse: false });
    // Row c has only a G-Eval label, which this run does not judge: nothing beside its custom verdicts.
    const c = custom.items.find((item) => item.requestId === "c");
    expect([c?.labels[MENTIONS], c?.labels[POLICY]]).toEqual([undefined, undefined]);
  });

  it("exports carry …/human_label columns for them", async () => {
    const meta = await runExportMeta(db, customRunId);
    expect(meta.columns).toContain(`${MENTIONS}/human_label`);
    expect(meta.columns).toContain(`${POLICY}/human_label`);
    // After the metric's Agent Evaluation columns and Assay's skip_reason.
    expect(meta.columns.indexOf(`${MENTIONS}/skip_reason`)).toBe(meta.columns.indexOf(`${MENTIONS}/error_message`) + 1);
    expect(meta.columns.indexOf(`${MENTIONS}/human_label`)).toBe(meta.columns.indexOf(`${MENTIONS}/skip_reason`) + 1);
    const records = [];
    for await (const record of runResultRecords(db, meta.exported)) records.push(record);
    expect(records[0][`${MENTIONS}/human_label`]).toBe("yes");
    expect(records[0][`${POLICY}/human_label`]).toEqual(["yes", "yes"]);
    expect(records[2][`${MENTIONS}/human_label`]).toBeNull();
    const gEval = await runExportMeta(db, gEvalRunId);
    const gRecords = [];
    for await (const record of runResultRecords(db, gEval.exported)) gRecords.push(record);
    expect(gRecords.map((record) => record[`${CLARITY}/human_label`])).toEqual([0.9, 0.8, 0.2]);
  });

  it("a label file may label them, and a wrong kind is an issue with its row and column", async () => {
    const file = [
      "request_id,metric,chunk_position,label",
      `c,${MENTIONS},,no`,
      `c,${CLARITY},,yes`,
      `c,response/llm_judged/g_eval/nope,,0.5`,
    ].join("\n");
    const result = await importLabelFile(
      db,
      datasetId,
      (async function* () {
        yield file;
      })(),
      "csv",
      { importedBy: null },
    );
    expect(result).toMatchObject({ ok: false, issueCount: 2 });
    if (result.ok) return;
    expect(result.issues.map((issue) => [issue.row, issue.column])).toEqual([
      [2, "label"],
      [3, "metric"],
    ]);
    expect(result.issues[0].message).toContain(`expected a score from 0 to 1 for ${CLARITY}`);
    const good = await importLabelFile(
      db,
      datasetId,
      (async function* () {
        yield `request_id,metric,chunk_position,label\nc,mentions_clear,,no\nc,${POLICY},0,no`;
      })(),
      "csv",
      { importedBy: null },
    );
    expect(good).toMatchObject({ ok: true, records: 2 });
    expect((await getRowLabels(db, rows.get(3) ?? "")).map((label) => [label.metric, label.rating])).toEqual([
      [CLARITY, null],
      [MENTIONS, "no"],
      [POLICY, "no"],
    ]);
  });
});
