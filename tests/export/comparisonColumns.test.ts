import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import type { Db } from "@/lib/db/client";
import { comparisonResultsCsv, comparisonResultsJson } from "@/lib/export/runResults";
import { importRows, runToCompletion } from "../support/engineKit";
import { SAMPLE_ROWS } from "../support/evalFiles";
import { createTempDb } from "../support/tempDb";

const CORRECTNESS = "response/llm_judged/correctness";
const GROUNDEDNESS = "response/llm_judged/groundedness";

async function collect(pieces: AsyncGenerator<string>): Promise<string> {
  let text = "";
  for await (const piece of pieces) text += piece;
  return text;
}

describe("comparison exports carry every compared run's columns", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let narrow: string;
  let wide: string;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    const datasetId = await importRows(db, SAMPLE_ROWS);
    const judge = { provider: "heuristic" as const, model: "heuristic" };
    narrow = (await runToCompletion(db, { datasetId, metrics: [CORRECTNESS], judge, name: "narrow" }, null)).runId;
    wide = (
      await runToCompletion(
        db,
        {
          datasetId,
          metrics: [CORRECTNESS, GROUNDEDNESS, "retrieval/llm_judged/chunk_relevance"],
          judge,
          name: "wide",
        },
        null,
      )
    ).runId;
  });
  afterAll(async () => cleanup());

  it("CSV: run_id, run_name, the row columns, then metric columns in the order first seen; the narrow run's cells of the wide run's metrics are empty", async () => {
    const text = await collect(comparisonResultsCsv(db, [narrow, wide]));
    const [header, ...lines] = parse(text) as string[][];
    expect(header.slice(0, 2)).toEqual(["run_id", "run_name"]);
    expect(header).toContain(`${GROUNDEDNESS}/rating`);
    expect(header).toContain("retrieval/llm_judged/chunk_relevance/precision");
    expect(header.indexOf(`${CORRECTNESS}/rating`)).toBeLessThan(header.indexOf(`${GROUNDEDNESS}/rating`));
    expect(header.indexOf("request_id")).toBe(2);
    expect(lines).toHaveLength(2 * SAMPLE_ROWS.length);
    const column = (name: string) => header.indexOf(name);
    expect(lines[0][column("run_id")]).toBe(narrow);
    expect(lines[0][column(`${GROUNDEDNESS}/rating`)]).toBe("");
    const wideLines = lines.filter((line) => line[column("run_id")] === wide);
    expect(wideLines.some((line) => line[column(`${GROUNDEDNESS}/rating`)] !== "")).toBe(true);
    expect(lines.every((line) => line.length === header.length)).toBe(true);
  });

  it("JSON: the union as columns, and every row of every run carries each of them", async () => {
    const body = JSON.parse(await collect(comparisonResultsJson(db, [narrow, wide])));
    expect(body.columns).toContain(`${GROUNDEDNESS}/rating`);
    for (const run of body.runs) for (const row of run.rows) expect(Object.keys(row)).toEqual(body.columns);
    expect(body.runs[0].rows[0][`${GROUNDEDNESS}/rating`]).toBeNull();
  });
});
