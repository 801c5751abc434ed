import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRunAgreement } from "@/lib/db/labels/agreementQueries";
import { listDisagreementRows } from "@/lib/db/labels/agreementRowQueries";
import type { Db } from "@/lib/db/client";
import { listRunRows } from "@/lib/db/runs/runRowQueries";
import type { ResultRecord } from "@/lib/export/resultColumns";
import { runExportMeta, runResultRecords } from "@/lib/export/runResults";
import { formatAgreementTable } from "@/lib/labels/agreementTable";
import { compareRunAgreement } from "@/lib/labels/compareAgreement";
import { getLabellingQueue } from "@/lib/labels/labellingQueue";
import { saveRowLabel } from "@/lib/labels/saveLabel";
import { parseRunRowQuery } from "@/lib/urlState/runRowQuery";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { importRows, runToCompletion } from "../support/engineKit";
import { toJsonl } from "../support/evalFiles";
import { spawnEval } from "../support/spawnEval";
import { createTempDb } from "../support/tempDb";
import { rowIdsByNumber } from "./seedRuns";

// A label judges one response. Labelling row-1 on a run of the dataset's responses, then running a
// model that generates its own, must not pass that label off as a verdict on the generated answer:
// not in κ, the rows table, the disagreement filter, compare's McNemar, the exports or the queue.

const CORRECTNESS = "response/llm_judged/correctness";
const judge = { provider: "openai" as const, model: "judge-labels" };

describe("a label belongs to the response it judged", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let server: FakeOpenAIServer;
  let datasetId: string;
  let datasetRunId: string;
  let generatedRunId: string;
  let rows: Map<number, string>;
  const datasetRun = () => ({ id: datasetRunId, datasetId });
  const generatedRun = () => ({ id: generatedRunId, datasetId });

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    server = await startFakeOpenAIServer({ responder: fakeJudgeResponder });
    datasetId = await importRows(
      db,
      [1, 2, 3].map((n) => ({
        request_id: `row-000${n}`,
        request: `Question ${n}?\nWith a second line.`,
        response: `The dataset's answer ${n}.`,
        expected_response: `Answer ${n}.`,
      })),
    );
    rows = await rowIdsByNumber(db, datasetId);
    const base = { datasetId, metrics: ["correctness"], judge, concurrency: 1 };
    ({ runId: datasetRunId } = await runToCompletion(db, base, server.url));
    ({ runId: generatedRunId } = await runToCompletion(
      db,
      { ...base, generation: { model: "candidate-gen" } },
      server.url,
    ));
    // On the dataset's responses the judge says yes to row 1; the person says no.
    const saved = await saveRowLabel(db, {
      datasetId,
      rowId: rows.get(1)!,
      metric: CORRECTNESS,
      value: "no",
      labelledBy: null,
      runId: datasetRunId,
    });
    expect(saved).toMatchObject({ ok: true });
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it("counts the label on the run whose response it judged, and leaves it out of the generated run's κ, saying so", async () => {
    const onDataset = (await getRunAgreement(db, datasetRun())).find((row) => row.metric === CORRECTNESS);
    expect(onDataset).toMatchObject({ labelled: 1, otherResponse: 0, confusion: { yesNo: 1 } });
    const onGenerated = (await getRunAgreement(db, generatedRun())).find((row) => row.metric === CORRECTNESS);
    expect(onGenerated).toMatchObject({ labelled: 0, errors: 0, unjudged: 0, otherResponse: 1 });
    expect(formatAgreementTable(await getRunAgreement(db, generatedRun()))).toContain(
      "1 label left out: given on another response",
    );
  });

  it("marks it 'labelled on another response' in the generated run's rows table, neither agreeing nor disagreeing", async () => {
    const page = await listRunRows(db, generatedRun(), parseRunRowQuery({}));
    const row1 = page.items.find((item) => item.requestId === "row-0001");
    expect(row1?.labels[CORRECTNESS]).toEqual({ text: "no", disagrees: false, chunks: null, otherResponse: true });
    const own = await listRunRows(db, datasetRun(), parseRunRowQuery({}));
    expect(own.items.find((item) => item.requestId === "row-0001")?.labels[CORRECTNESS]).toMatchObject({
      disagrees: true,
      otherResponse: false,
    });
  });

  it("keeps it out of the generated run's 'judge disagrees with label' filter", async () => {
    const query = { q: "", sort: "rowNumber" as const, dir: "asc" as const, page: 1, pageSize: 50 };
    expect((await listDisagreementRows(db, datasetRun(), query)).items.map((row) => row.rowNumber)).toEqual([1]);
    expect((await listDisagreementRows(db, generatedRun(), query)).items).toEqual([]);
  });

  it("pairs nothing on the compare page: the generated run has no label on its own answers", async () => {
    const [row] = await compareRunAgreement(db, datasetRun(), generatedRun());
    expect(row.metric).toBe(CORRECTNESS);
    expect(row.a).toMatchObject({ labelled: 1, otherResponse: 0 });
    expect(row.b).toMatchObject({ labelled: 0, otherResponse: 1 });
    expect(row.paired).toBeNull();
  });

  it("exports the label only beside the response it judged", async () => {
    const exported = async (runId: string) => {
      const meta = await runExportMeta(db, runId);
      const records: ResultRecord[] = [];
      for await (const record of runResultRecords(db, meta.exported)) records.push(record);
      return records.map((record) => record[`${CORRECTNESS}/human_label`]);
    };
    expect(await exported(datasetRunId)).toEqual(["no", null, null]);
    expect(await exported(generatedRunId)).toEqual([null, null, null]);
  });

  it("does not offer the row in the generated run's queue, and counts it apart", async () => {
    const queue = await getLabellingQueue(db, generatedRun(), CORRECTNESS, { target: 10 });
    if ("error" in queue) throw new Error(queue.error);
    expect(queue.otherResponse).toBe(1);
    expect(queue.next.map((unit) => unit.rowNumber).sort()).toEqual([2, 3]);
    expect(queue.next[0].requestLine).toMatch(/^Question \d\?$/);
  });

  it("a label given on the generated run records the generated answer's hash and counts there, not on the dataset's run", async () => {
    const saved = await saveRowLabel(db, {
      datasetId,
      rowId: rows.get(2)!,
      metric: CORRECTNESS,
      value: "yes",
      labelledBy: null,
      runId: generatedRunId,
    });
    expect(saved).toMatchObject({ ok: true });
    const generation = await db.generation.findFirstOrThrow({ where: { runId: generatedRunId, rowId: rows.get(2)! } });
    const label = await db.humanLabel.findFirstOrThrow({ where: { rowId: rows.get(2)!, metric: CORRECTNESS } });
    expect(generation.response).toMatch(/^Generated answer to:/);
    expect(label.responseHash).toBe(createHash("sha256").update(generation.response!, "utf8").digest("hex"));
    const revision = await db.humanLabelRevision.findFirstOrThrow({
      where: { rowId: rows.get(2)!, metric: CORRECTNESS },
    });
    expect(revision).toMatchObject({ runId: generatedRunId, responseHash: label.responseHash });
    expect((await getRunAgreement(db, generatedRun())).find((row) => row.metric === CORRECTNESS)).toMatchObject({
      labelled: 1,
      otherResponse: 1,
    });
    expect((await getRunAgreement(db, datasetRun())).find((row) => row.metric === CORRECTNESS)).toMatchObject({
      labelled: 1,
      otherResponse: 1,
    });
  });
});

describe("npm run eval on a labelled dataset with --generate-model", () => {
  let server: FakeOpenAIServer;
  let dir: string;
  beforeAll(async () => {
    server = await startFakeOpenAIServer({ responder: fakeJudgeResponder });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-cli-label-content-"));
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("prints how many labels it left out because they were given on the dataset's responses", async () => {
    const file = path.join(dir, "set.jsonl");
    fs.writeFileSync(
      file,
      toJsonl(
        [1, 2, 3].map((n) => ({
          request_id: `r${n}`,
          request: `Question ${n}?`,
          response: `Answer ${n}.`,
          expected_response: `Answer ${n}.`,
          human_labels: { correctness: n === 2 ? "no" : "yes" },
        })),
      ),
    );
    const { code, stdout, stderr } = await spawnEval(
      ["--dataset", file, "--judges", "correctness", "--judge-model", "heuristic", "--generate-model", "gen-cli"],
      { DATABASE_URL: `file:${path.join(dir, "cli.db")}`, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-test-0000" },
    ).done;
    expect(code, stderr).toBe(0);
    const table = stdout.slice(stdout.indexOf("Agreement with human labels"));
    expect(table).toContain("Agreement with human labels");
    expect(table).toContain("3 labels left out: given on another response");
  }, 120_000);
});
