import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABRICKS_METRICS } from "@/lib/contract/metricCatalog";
import { resultColumnNames } from "@/lib/export/resultColumns";
import { toJsonl } from "../support/evalFiles";
import { createTempDb, type TempDb } from "../support/tempDb";
import { spawnEval } from "../support/spawnEval";
import { syntheticRows } from "../support/syntheticRows";
import { startRouteServer, type RouteServer } from "./routeServer";

/**
 * A 250-row run × every judge × 5 chunks, on the project's store, exported
 * every way a user can: the CLI's --out (JSON and CSV) and the web export
 * routes (run and comparison, JSON and CSV) over real HTTP. Before the fix the
 * run export stopped at Prisma's 999-bound-value limit after about 90 rows; the
 * exports read 100 rows a page, so this is two full pages and a part one.
 */
const ROWS = 250;
const CHUNKS = 5;
// What `--judges all` runs: every Databricks judge and metric (the score families are asked for by name).
const ALL = DATABRICKS_METRICS.map((metric) => metric.name);
const CHUNK_RELEVANCE = "retrieval/llm_judged/chunk_relevance";
const TWO = ["response/llm_judged/correctness", "response/llm_judged/groundedness"];

type Row = Record<string, unknown>;

describe(`exports of a ${ROWS}-row run × every judge × ${CHUNKS} chunks`, () => {
  let dir: string;
  let env: Record<string, string>;
  let runId: string;
  let otherRunId: string;
  let server: RouteServer;
  let store: TempDb;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-export-"));
    const datasetFile = path.join(dir, "set.jsonl");
    fs.writeFileSync(datasetFile, toJsonl(syntheticRows(ROWS, CHUNKS)));
    // A migrated store of the project's kind (SQLite, or PostgreSQL in the postgresql project).
    store = await createTempDb();
    env = { DATABASE_URL: store.url };
    const first = await spawnEval(
      [
        "--dataset",
        datasetFile,
        "--judges",
        "all",
        "--judge-model",
        "heuristic",
        "--out",
        path.join(dir, "results.json"),
        "--quiet",
      ],
      env,
    ).done;
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    runId = /Run (\S+) "/.exec(first.stdout)![1];

    // The web routes read the same database through getDb().
    process.env.DATABASE_URL = env.DATABASE_URL;
    // The route handlers run as in a server `npm start` started on loopback (sign-in off needs its address check).
    process.env.ASSAY_ADDRESS_CHECKED = "127.0.0.1";
    const { getDb } = await import("@/lib/db/client");
    const run = await getDb().run.findUniqueOrThrow({ where: { id: runId }, select: { datasetId: true } });
    const second = await spawnEval(
      [
        "--dataset-id",
        run.datasetId,
        "--judges",
        TWO.map((m) => m.split("/").pop()).join(","),
        "--judge-model",
        "heuristic",
        "--quiet",
      ],
      env,
    ).done;
    expect(second.code).toBe(0);
    otherRunId = /Run (\S+) "/.exec(second.stdout)![1];

    const runRoute = await import("@/app/runs/[runId]/export/route");
    const compareRoute = await import("@/app/compare/export/route");
    server = await startRouteServer(async (request) => {
      const url = new URL(request.url);
      const match = /^\/runs\/([^/]+)\/export$/.exec(url.pathname);
      if (match) return runRoute.GET(request, { params: Promise.resolve({ runId: match[1] }) });
      return compareRoute.GET(request);
    });
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    const { closeDb, getDb } = await import("@/lib/db/client");
    await closeDb(getDb());
    await store?.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function expectCompleteRows(rows: Row[]) {
    expect(rows).toHaveLength(ROWS);
    expect(new Set(rows.map((row) => row.request_id)).size).toBe(ROWS);
    for (const row of [rows[0], rows[ROWS / 2], rows[ROWS - 1]]) {
      expect(row[`${CHUNK_RELEVANCE}/ratings`]).toHaveLength(CHUNKS);
      expect(row["response/llm_judged/correctness/rating"]).toMatch(/^(yes|no)$/);
      expect(row["retrieval/ground_truth/document_recall"]).toEqual(expect.any(Number));
    }
  }

  it("CLI --out JSON: every row, every judge's columns, and no temporary file left", () => {
    const results = JSON.parse(fs.readFileSync(path.join(dir, "results.json"), "utf8"));
    expectCompleteRows(results.rows);
    expect(Object.keys(results.rows[0])).toEqual(resultColumnNames(ALL));
    expect(fs.readdirSync(dir).filter((name) => name.includes("partial"))).toEqual([]);
  });

  it("CLI --out CSV (re-export of the stored run): parses to every row with the JSON's columns", async () => {
    const out = path.join(dir, "results.csv");
    const { code } = await spawnEval(["--resume", runId, "--out", out, "--quiet"], env).done;
    expect(code).toBe(0);
    const records = parse(fs.readFileSync(out, "utf8"), { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(ROWS);
    expect(Object.keys(records[0])).toEqual(resultColumnNames(ALL));
    expectCompleteRows(
      records.map((r) => ({
        ...r,
        [`${CHUNK_RELEVANCE}/ratings`]: JSON.parse(r[`${CHUNK_RELEVANCE}/ratings`]),
        "retrieval/ground_truth/document_recall": Number(r["retrieval/ground_truth/document_recall"]),
      })),
    );
  }, 60_000);

  it("web run export, JSON and CSV, over HTTP", async () => {
    const json = await fetch(`${server.baseUrl}/runs/${runId}/export?format=json`);
    expect(json.status).toBe(200);
    expectCompleteRows(JSON.parse(await json.text()).rows);
    const csv = await fetch(`${server.baseUrl}/runs/${runId}/export?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const records = parse(await csv.text(), { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(ROWS);
  }, 60_000);

  it("web comparison export: one line per (run, row), the union of both runs' columns", async () => {
    const csv = await fetch(`${server.baseUrl}/compare/export?runs=${otherRunId},${runId}&format=csv`);
    expect(csv.status).toBe(200);
    const records = parse(await csv.text(), { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(2 * ROWS);
    // The first run has two judges; the header still carries every judge of the second.
    const firstColumns = resultColumnNames(TWO);
    expect(Object.keys(records[0])).toEqual([
      "run_id",
      "run_name",
      ...firstColumns,
      ...resultColumnNames(ALL).filter((c) => !firstColumns.includes(c)),
    ]);
    expect(records[0].run_id).toBe(otherRunId);
    expect(records[0][`${CHUNK_RELEVANCE}/precision`]).toBe("");
    expect(records[ROWS].run_id).toBe(runId);
    expect(records[ROWS][`${CHUNK_RELEVANCE}/ratings`]).not.toBe("");
    const json = await fetch(`${server.baseUrl}/compare/export?runs=${otherRunId},${runId}&format=json`);
    const body = JSON.parse(await json.text());
    expect(body.runs.map((r: { rows: Row[] }) => r.rows.length)).toEqual([ROWS, ROWS]);
    expect(Object.keys(body.runs[0].rows[0])).toEqual(body.columns);
    expect(body.runs[0].rows[0][`${CHUNK_RELEVANCE}/ratings`]).toBeNull();
  }, 60_000);
});
