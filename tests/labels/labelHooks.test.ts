import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { roleCan } from "@/lib/auth/permissions";
import { getRowLabels } from "@/lib/db/labels/labelQueries";
import { getRunRowNeighbours, getRunRowPosition, listRunRows } from "@/lib/db/runs/runRowQueries";
import { runResultsCsv, runResultsJson } from "@/lib/export/runResults";
import { agreementCellHref, describeRunRowFilter, parseRunRowQuery, runRowsViewHref } from "@/lib/urlState/runRowQuery";
import { ingestIntoDb } from "../ingest/ingestIntoTempDb";
import { toCsv, toJsonl } from "../support/evalFiles";
import { spawnEval } from "../support/spawnEval";
import { createTempDb } from "../support/tempDb";
import { rowIdsByNumber, seedRun } from "./seedRuns";

const G = "response/llm_judged/groundedness";
const C = "response/llm_judged/correctness";

const row = (n: number, labels?: unknown) => ({
  request_id: `r${n}`,
  request: `Question ${n}?`,
  response: `Answer ${n}.`,
  expected_response: `Answer ${n}.`,
  retrieved_context: [{ content: `Chunk of ${n}`, doc_uri: `doc${n}` }],
  ...(labels === undefined ? {} : { human_labels: labels }),
});

async function collect(pieces: AsyncGenerator<string>): Promise<string> {
  let text = "";
  for await (const piece of pieces) text += piece;
  return text;
}

describe("human labels through the upload, the rows table, exports and the CLI", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;
  let runId: string;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    // Labels on rows 1–4 (groundedness), row 1 also correctness; rows 5–6 unlabelled.
    const rows = [
      row(1, { groundedness: "yes", correctness: "no" }),
      row(2, { groundedness: "no" }),
      row(3, { groundedness: "yes" }),
      row(4, { groundedness: "no" }),
      row(5),
      row(6),
    ];
    const upload = await ingestIntoDb(db, "labelled.jsonl", toJsonl(rows), "strict");
    if (!upload.result.ok) throw new Error(upload.messages.join("; "));
    datasetId = upload.result.datasetId;
    // The judge: yes on 1, 2; no on 3, 4; error on 5 (unlabelled). Disagrees on 2 (yes/no) and 3 (no/yes).
    runId = await seedRun(db, datasetId, "seeded", [
      { rowNumber: 1, metric: G, rating: "yes", rationale: "supported" },
      { rowNumber: 2, metric: G, rating: "yes" },
      { rowNumber: 3, metric: G, rating: "no" },
      { rowNumber: 4, metric: G, rating: "no" },
      { rowNumber: 5, metric: G, status: "error" },
      { rowNumber: 6, metric: G, rating: "yes" },
    ]);
    // What the engine stores for a run of this one judge (the seed writes verdicts only).
    await db.run.update({
      where: { id: runId },
      data: { config: JSON.stringify({ metrics: [G], chunkMode: "batched", thresholds: {} }) },
    });
  }, 60_000);
  afterAll(async () => cleanup());

  it("an upload with human_labels stores each label with the row, from the upload, as revision 1", async () => {
    const ids = await rowIdsByNumber(db, datasetId);
    const first = await getRowLabels(db, ids.get(1) ?? "");
    expect(first.map((l) => [l.metric, l.rating, l.source, l.revision])).toEqual([
      [C, "no", "upload", 1],
      [G, "yes", "upload", 1],
    ]);
    expect(await getRowLabels(db, ids.get(5) ?? "")).toEqual([]);
  });

  it("a bad label is a row issue with row, line and column human_labels, in JSON Lines and in CSV", async () => {
    const rows = [row(1, { groundedness: "yes" }), row(2, { groundedness: "maybe" }), row(3, { groundednes: "no" })];
    const jsonl = await ingestIntoDb(db, "bad.jsonl", toJsonl(rows), "strict");
    expect(jsonl.result.ok).toBe(false);
    expect(jsonl.result.issues).toEqual([
      expect.objectContaining({
        row: 2,
        line: 2,
        column: "human_labels",
        message: expect.stringContaining("groundedness"),
      }),
      expect.objectContaining({
        row: 3,
        line: 3,
        column: "human_labels",
        message: expect.stringContaining("unknown metric"),
      }),
    ]);
    expect(jsonl.added.rows).toBe(0);

    const csvRows = rows.map((r) => ({ ...r, human_labels: JSON.stringify(r.human_labels) }));
    const csv = await ingestIntoDb(db, "bad.csv", toCsv(csvRows), "strict");
    expect(csv.result.ok).toBe(false);
    expect(csv.result.issues.map((i) => [i.row, i.column])).toEqual([
      [2, "human_labels"],
      [3, "human_labels"],
    ]);
    // In skip mode the good row is imported with its label and the others are reported.
    const skipped = await ingestIntoDb(db, "bad.csv", toCsv(csvRows), "validRowsOnly");
    expect(skipped.result.ok).toBe(true);
    expect(skipped.storedRows).toHaveLength(1);
    expect((await getRowLabels(db, skipped.storedRows[0].id)).map((l) => l.rating)).toEqual(["yes"]);
  });

  it("filter=disagrees lists the rows where the judge's verdict differs from the label; j/k/n and the place follow it", async () => {
    const query = parseRunRowQuery({ filter: "disagrees" });
    const run = { id: runId, datasetId };
    const page = await listRunRows(db, run, query);
    expect(page.items.map((r) => r.requestId)).toEqual(["r2", "r3"]);
    expect(page.total).toBe(2);
    expect(page.items[0].verdicts[G]).toMatchObject({ rating: "yes" });
    const ids = await rowIdsByNumber(db, datasetId);
    const second = { id: ids.get(2) ?? "", rowNumber: 2 };
    expect(await getRunRowPosition(db, run, second, query)).toEqual({ index: 1, total: 2 });
    expect(await getRunRowNeighbours(db, run, 2, query)).toEqual({
      previousId: null,
      nextId: ids.get(3),
      nextFailedId: ids.get(3),
    });
    // Outside the filter: row 1 agrees.
    expect(await getRunRowPosition(db, run, { id: ids.get(1) ?? "", rowNumber: 1 }, query)).toEqual({
      index: null,
      total: 2,
    });
  });

  it("filter=cell lists one confusion cell of one metric; without a metric or cell it falls back to all rows", async () => {
    const run = { id: runId, datasetId };
    const cell = (name: string) => parseRunRowQuery({ filter: "cell", metric: G, cell: name });
    expect((await listRunRows(db, run, cell("yes-yes"))).items.map((r) => r.requestId)).toEqual(["r1"]);
    expect((await listRunRows(db, run, cell("yes-no"))).items.map((r) => r.requestId)).toEqual(["r2"]);
    expect((await listRunRows(db, run, cell("no-yes"))).items.map((r) => r.requestId)).toEqual(["r3"]);
    expect((await listRunRows(db, run, cell("no-no"))).items.map((r) => r.requestId)).toEqual(["r4"]);
    expect(parseRunRowQuery({ filter: "cell", cell: "yes-no" }).filter).toBe("all");
    expect(parseRunRowQuery({ filter: "failed", cell: "yes-no" }).cell).toBeUndefined();
    const ids = await rowIdsByNumber(db, datasetId);
    expect(await getRunRowPosition(db, run, { id: ids.get(3) ?? "", rowNumber: 3 }, cell("no-yes"))).toEqual({
      index: 1,
      total: 1,
    });
  });

  it("exports carry <metric>/human_label right after each judged metric's columns", async () => {
    const csv = await collect(runResultsCsv(db, runId));
    const [header, ...lines] = csv.trim().split("\r\n");
    const columns = header.split(",");
    const at = columns.indexOf(`${G}/human_label`);
    // Agent Evaluation's columns, then Assay's own skip_reason, then the label.
    expect(columns.slice(at - 4, at)).toEqual([
      `${G}/rating`,
      `${G}/rationale`,
      `${G}/error_message`,
      `${G}/skip_reason`,
    ]);
    // The label is the last column here (one judged metric); the cells before it hold JSON with commas.
    expect(at).toBe(columns.length - 1);
    expect(lines.map((line) => line.slice(line.lastIndexOf(",") + 1))).toEqual(["yes", "no", "yes", "no", "", ""]);
    const json = z
      .object({ rows: z.array(z.record(z.string(), z.unknown())) })
      .parse(JSON.parse(await collect(runResultsJson(db, runId))));
    expect(json.rows.map((r) => r[`${G}/human_label`])).toEqual(["yes", "no", "yes", "no", null, null]);
  });
});

describe("npm run eval prints the agreement per judge when the dataset has labels", () => {
  let dir: string;
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("prints the table after the aggregates", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-cli-labels-"));
    const file = path.join(dir, "set.jsonl");
    fs.writeFileSync(
      file,
      toJsonl([row(1, { correctness: "yes" }), row(2, { correctness: "no" }), row(3, { correctness: "yes" })]),
    );
    const { code, stdout } = await spawnEval(
      ["--dataset", file, "--judges", "correctness", "--judge-model", "heuristic", "--quiet"],
      { DATABASE_URL: `file:${path.join(dir, "cli.db")}` },
    ).done;
    expect(code).toBe(0);
    const table = stdout.slice(stdout.indexOf("Agreement with human labels"));
    expect(table).toContain("Agreement with human labels");
    expect(table).toMatch(/κ \(95 % CI\)/);
    expect(table).toMatch(/response\/llm_judged\/correctness\s+3\s+0/);
  }, 120_000);
});

describe("who may label", () => {
  it("runners and admins write labels; viewers only read them", () => {
    expect(roleCan("viewer", "labels.write")).toBe(false);
    expect(roleCan("runner", "labels.write")).toBe(true);
    expect(roleCan("admin", "labels.write")).toBe(true);
  });
});

describe("links into the agreement filters", () => {
  it("a confusion cell's link names the metric and the cell; clearing the metric leaves no cell behind", () => {
    const href = agreementCellHref("r1", G, "yes-no");
    expect(href).toBe(`/runs/r1?filter=cell&metric=${encodeURIComponent(G)}&cell=yes-no#rows`);
    const query = parseRunRowQuery(Object.fromEntries(new URL(href, "http://x").searchParams));
    expect(describeRunRowFilter(query)).toBe("judge yes, label no on groundedness");
    expect(runRowsViewHref("r1", query, { metric: undefined })).toBe(
      "/runs/r1?filter=all&sort=rowNumber&dir=asc&pageSize=25#rows",
    );
    expect(runRowsViewHref("r1", query, { filter: "disagrees" })).toBe(
      `/runs/r1?filter=disagrees&metric=${encodeURIComponent(G)}&sort=rowNumber&dir=asc&pageSize=25#rows`,
    );
    expect(describeRunRowFilter({ filter: "disagrees", q: "" })).toBe("judge disagrees with the label");
  });
});
