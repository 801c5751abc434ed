import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { countInputSignatures, getInputCoverage } from "@/lib/db/datasets/datasetQueries";
import { coverageOfSignatures } from "@/lib/contract/inputSignatures";
import { createTempDb } from "../support/tempDb";
import { ingestIntoDb } from "./ingestIntoTempDb";

let db: Db;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTempDb()));
afterAll(async () => cleanup());

async function storedFlags(datasetId: string) {
  const rows = await db.datasetRow.findMany({
    where: { datasetId },
    orderBy: { rowNumber: "asc" },
    select: { requestId: true, response: true, hasResponse: true, hasEmptyResponse: true },
  });
  return rows.map((row) => [row.requestId, row.response, row.hasResponse, row.hasEmptyResponse]);
}

describe("an empty response, kept apart from a missing one", () => {
  it("JSON's \"\" is an empty response: no response for Assay's judges, a response for DeepEval-exact", async () => {
    const file = [
      { request_id: "said", request: "q1", response: "An answer." },
      { request_id: "empty", request: "q2", response: "" },
      { request_id: "missing", request: "q3" },
    ]
      .map((row) => JSON.stringify(row))
      .join("\n");
    const { result } = await ingestIntoDb(db, "empty.jsonl", file, "strict");
    if (!result.ok) throw new Error("the upload failed");
    expect(await storedFlags(result.datasetId)).toEqual([
      ["said", "An answer.", true, false],
      ["empty", null, false, true],
      ["missing", null, false, false],
    ]);
    // Counted as the upload wrote the rows, and again in SQL from the stored flags: the same figures.
    const kept = await getInputCoverage(db, result.datasetId);
    const counted = coverageOfSignatures(await countInputSignatures(db, result.datasetId));
    for (const coverage of [kept, counted]) {
      expect(coverage.inputs.response).toBe(1);
      expect(coverage.inputs.response_or_empty).toBe(2);
      expect(coverage.metrics["response/llm_judged/answer_relevancy"]).toBe(1);
    }
  });

  it("a DeepEval test case's empty actual_output is an empty response too", async () => {
    const file = JSON.stringify({ input: "q1", actual_output: "", expected_output: "An answer.", name: "case-1" });
    const { result } = await ingestIntoDb(db, "deepeval.jsonl", file, "strict");
    if (!result.ok) throw new Error("the upload failed");
    expect(await storedFlags(result.datasetId)).toEqual([["case-1", null, false, true]]);
  });

  it("a CSV's empty cell cannot say which it is: it reads as missing", async () => {
    const { result } = await ingestIntoDb(db, "empty.csv", "request_id,request,response\r\nempty,q1,\r\n", "strict");
    if (!result.ok) throw new Error("the upload failed");
    expect(await storedFlags(result.datasetId)).toEqual([["empty", null, false, false]]);
  });
});
