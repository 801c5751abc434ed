import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { countLabelledRows, getRowLabelHistory, getRowLabels } from "@/lib/db/labels/labelQueries";
import { clearLabel, writeLabels } from "@/lib/db/labels/labelWrites";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";
import { rowIdsByNumber } from "./seedRuns";

type Route = typeof import("@/app/api/datasets/[datasetId]/labels/route");

describe("labels on their own: the label file and its route", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;
  let route: Route;
  const params = () => ({ params: Promise.resolve({ datasetId }) });
  const post = (body: string, headers: Record<string, string> = {}) =>
    route.POST(
      new Request(`http://localhost/api/datasets/${datasetId}/labels`, {
        method: "POST",
        body,
        headers: { host: "localhost", "sec-fetch-site": "same-origin", ...headers },
      }),
      params(),
    );
  const get = async (format: string) =>
    (
      await route.GET(
        new Request(`http://localhost/api/datasets/${datasetId}/labels?format=${format}`, {
          headers: { host: "localhost" },
        }),
        params(),
      )
    ).text();

  beforeAll(async () => {
    let url: string;
    ({ db, cleanup, url } = await createTempDb());
    datasetId = await importRows(db, syntheticRows(5, 3));
    process.env.DATABASE_URL = url;
    // The route handlers run as in a server `npm start` started on loopback (sign-in off needs its address check).
    process.env.ASSAY_ADDRESS_CHECKED = "127.0.0.1";
    route = await import("@/app/api/datasets/[datasetId]/labels/route");
  }, 60_000);
  afterAll(async () => {
    const { getDb } = await import("@/lib/db/client");
    await getDb().$disconnect();
    await cleanup();
  });

  it("imports a CSV keyed by request_id with short metric names, and exports it back", async () => {
    const csv = [
      "request_id,metric,chunk_position,label,labelled_by,reason",
      `row-1,groundedness,,no,alice,"It cites a year, 1998, the context never gives."`,
      "row-1,chunk_relevance,2,yes,,",
      "row-2,correctness,,YES,bob,",
    ].join("\n");
    const response = await post(csv, { "content-type": "text/csv" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, records: 3, changed: 3 });

    const exported = (await get("csv")).trim().split("\r\n");
    expect(exported[0]).toBe("request_id,metric,chunk_position,label,labelled_by,labelled_at,stated_by,reason");
    // The labeller's reason goes out as it came in (an aligned judge's example shows it).
    expect(exported[1]).toMatch(/,"It cites a year, 1998, the context never gives\."$/);
    expect(exported.slice(1).map((line) => line.split(",").slice(0, 5).join(","))).toEqual([
      "row-1,response/llm_judged/groundedness,,no,alice",
      "row-1,retrieval/llm_judged/chunk_relevance,2,yes,",
      "row-2,response/llm_judged/correctness,,yes,bob",
    ]);
    const json: unknown = JSON.parse(await get("json"));
    expect(json).toHaveLength(3);

    // The exported file imports back unchanged: nothing written, no history added.
    const again = await post(await get("json"), { "content-type": "application/json" });
    expect(await again.json()).toEqual({ ok: true, records: 3, changed: 0 });
  });

  it("writes nothing when any record has an issue, and names row and column for each", async () => {
    const before = await countLabelledRows(db, datasetId);
    const jsonl = [
      JSON.stringify({ request_id: "row-3", metric: "safety", label: "yes" }),
      JSON.stringify({ request_id: "row-99", metric: "safety", label: "yes" }),
      JSON.stringify({ request_id: "row-4", metric: "correctness", label: 0.4 }),
      JSON.stringify({ request_id: "row-4", metric: "chunk_relevance", chunk_position: 7, label: "no" }),
      JSON.stringify({ request_id: "row-3", metric: "safety", label: "no" }),
    ].join("\n");
    const response = await post(jsonl, { "content-type": "application/x-ndjson" });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { issues: string[]; issueCount: number };
    expect(body.issues).toEqual([
      'row 2, column request_id: no row of this dataset has request_id "row-99"',
      'row 3, column label: expected "yes" or "no" for response/llm_judged/correctness, got 0.4',
      "row 4, column chunk_position: the row has 3 retrieved chunks (positions from 0)",
      "row 5, column label: row 1 labels the same row, metric and chunk",
    ]);
    // Row 1 of the file was valid, and still nothing was written.
    expect(await countLabelledRows(db, datasetId)).toEqual(before);
  });

  it("refuses a cross-site import", async () => {
    expect((await post("request_id,metric,label\nrow-1,safety,yes", { "sec-fetch-site": "cross-site" })).status).toBe(
      403,
    );
    const fromElsewhere = await route.POST(
      new Request(`http://localhost/api/datasets/${datasetId}/labels`, {
        method: "POST",
        body: "request_id,metric,label\nrow-1,safety,yes",
        headers: { host: "localhost", origin: "https://evil.example" },
      }),
      params(),
    );
    expect(fromElsewhere.status).toBe(403);
    expect((await countLabelledRows(db, datasetId)).find((m) => m.metric.endsWith("safety"))).toBeUndefined();
  });

  it("keeps the history of a label: given, changed, cleared, given again (one person's; several people's are goldLabels.test.ts's)", async () => {
    const rowId = (await rowIdsByNumber(db, datasetId)).get(5) ?? "";
    const metric = "response/llm_judged/safety";
    const label = (rating: "yes" | "no") => ({ metric, chunkPosition: -1, value: { kind: "rating" as const, rating } });
    const t = (s: number) => new Date(Date.UTC(2026, 10, 22, 17, 0, s));
    expect(
      await writeLabels(db, datasetId, [{ rowId, entries: [label("yes")] }], {
        labelledBy: "a",
        source: "ui",
        at: t(1),
      }),
    ).toBe(1);
    expect(
      await writeLabels(db, datasetId, [{ rowId, entries: [label("no")] }], {
        labelledBy: "a",
        source: "ui",
        at: t(2),
      }),
    ).toBe(1);
    expect(await getRowLabels(db, rowId)).toMatchObject([{ metric, rating: "no", labelledBy: "a", revision: 2 }]);
    expect(
      await clearLabel(
        db,
        { datasetId, rowId, metric, chunkPosition: -1 },
        { labelledBy: "a", source: "ui", at: t(3) },
      ),
    ).toBe(true);
    expect(await getRowLabels(db, rowId)).toEqual([]);
    await writeLabels(db, datasetId, [{ rowId, entries: [label("yes")] }], { labelledBy: "a", source: "ui", at: t(4) });
    expect((await getRowLabelHistory(db, rowId)).map((r) => [r.revision, r.action, r.rating, r.labelledBy])).toEqual([
      [4, "set", "yes", "a"],
      [3, "cleared", null, "a"],
      [2, "set", "no", "a"],
      [1, "set", "yes", "a"],
    ]);
    expect((await getRowLabels(db, rowId))[0].revision).toBe(4);
  });

  it("refuses a chunk beyond the row's chunks and a row of another dataset, writing nothing", async () => {
    const rowId = (await rowIdsByNumber(db, datasetId)).get(5) ?? "";
    const before = await getRowLabels(db, rowId);
    await expect(
      writeLabels(
        db,
        datasetId,
        [
          {
            rowId,
            entries: [
              {
                metric: "response/llm_judged/groundedness",
                chunkPosition: -1,
                value: { kind: "rating", rating: "no" },
              },
              {
                metric: "retrieval/llm_judged/chunk_relevance",
                chunkPosition: 3,
                value: { kind: "rating", rating: "no" },
              },
            ],
          },
        ],
        { labelledBy: null, source: "ui" },
      ),
    ).rejects.toThrow(/3 retrieved chunks/);
    expect(await getRowLabels(db, rowId)).toEqual(before);
    await expect(
      writeLabels(db, "another-dataset", [{ rowId, entries: [] }], { labelledBy: null, source: "ui" }),
    ).rejects.toThrow(/not in this dataset/);
  });
});
