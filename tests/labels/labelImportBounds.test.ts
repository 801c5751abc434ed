import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/lib/db/client";
import { getRowLabelHistory, getRowLabels } from "@/lib/db/labels/labelQueries";
import { createUploadGate, type UploadGate } from "@/lib/server/uploadGate";
import { importLabelFile } from "@/lib/labels/labelImport";
import { labelFilePieces } from "@/lib/labels/labelFile";
import { importRows } from "../support/engineKit";
import { arrivingWhole, twoLabelsPerRow } from "../support/labelFiles";
import { turnsGivenDuring } from "../support/eventLoopTurns";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";
import { rowIdsByNumber } from "./seedRuns";

type Route = typeof import("@/app/api/datasets/[datasetId]/labels/route");

const ROWS = 10_000;
/** Two labels per row: 20,000 records. */
const bigLabelFile = (rating: "yes" | "no", last?: string) => twoLabelsPerRow(ROWS, rating, last);

let db: Db;
let cleanup: () => Promise<void>;
let datasetId: string;
let route: Route;
const counts = async () => ({
  labels: await db.humanLabel.count(),
  revisions: await db.humanLabelRevision.count(),
  staged: await db.labelImportStaging.count(),
});

beforeAll(async () => {
  let url: string;
  ({ db, cleanup, url } = await createTempDb());
  datasetId = await importRows(db, syntheticRows(ROWS, 1));
  process.env.DATABASE_URL = url;
  // The route handlers run as in a server `npm start` started on loopback (sign-in off needs its address check).
  process.env.ASSAY_ADDRESS_CHECKED = "127.0.0.1";
  route = await import("@/app/api/datasets/[datasetId]/labels/route");
}, 120_000);
afterAll(async () => {
  const { getDb } = await import("@/lib/db/client");
  await getDb().$disconnect();
  await cleanup();
});

describe("a large label import", () => {
  it("imports 20,000 labels without blocking the server: the event loop is handed back after every batch", async () => {
    // The whole file at once, as a buffered body arrives: the worst case for blocking, since it is read in
    // microtasks alone. Counted, not timed: other requests get a turn at least after each of the 80 staged
    // batches (250 records) and the 200 promoted groups (100 rows). How long the longest hold lasts is a speed,
    // measured by npm run bench:labels.
    const { turns, result } = await turnsGivenDuring(() =>
      importLabelFile(db, datasetId, arrivingWhole(bigLabelFile("yes")), "csv", { importedBy: null }),
    );
    console.log(`20,000 labels imported; the event loop was handed back ${turns} times`);
    expect(result).toEqual({ ok: true, records: 20_000, changed: 20_000 });
    expect(await counts()).toEqual({ labels: 20_000, revisions: 20_000, staged: 0 });
    expect(turns).toBeGreaterThanOrEqual(80 + 200);
  }, 120_000);

  it("changes nothing when its last record is wrong, and leaves nothing staged", async () => {
    const before = await counts();
    const result = await importLabelFile(
      db,
      datasetId,
      arrivingWhole(bigLabelFile("no", "row-1,groundedness,,maybe,alice")),
      "csv",
      { importedBy: null },
    );
    expect(result).toMatchObject({ ok: false, issueCount: 1 });
    expect(await counts()).toEqual(before);
    const rowId = (await rowIdsByNumber(db, datasetId)).get(ROWS) ?? "";
    expect((await getRowLabels(db, rowId)).map((label) => label.rating)).toEqual(["yes", "yes"]);
  }, 120_000);

  it("finds a label given twice even when a staged batch lies between the two", async () => {
    const lines = ["request_id,metric,label"];
    for (let row = 1; row <= 600; row += 1) lines.push(`row-${row},safety,yes`);
    lines.push("row-2,safety,no");
    const result = await importLabelFile(db, datasetId, arrivingWhole(lines.join("\n")), "csv", { importedBy: null });
    expect(result).toEqual({
      ok: false,
      issueCount: 1,
      issues: [{ row: 601, line: 602, column: "label", message: "row 2 labels the same row, metric and chunk" }],
    });
    expect(await db.humanLabel.count({ where: { metric: { endsWith: "safety" } } })).toBe(0);
    expect(await db.labelImportStaging.count()).toBe(0);
  });
});

describe("who labelled an imported label", () => {
  const file = "request_id,metric,label,labelled_by\nrow-7,safety,no,mallory@example.com\nrow-8,safety,yes,";

  it("with sign-in on, is the importer; the file's labelled_by is kept as stated_by", async () => {
    const result = await importLabelFile(db, datasetId, arrivingWhole(file), "csv", {
      importedBy: "runner@example.com",
    });
    expect(result).toEqual({ ok: true, records: 2, changed: 2 });
    const rows = await rowIdsByNumber(db, datasetId);
    const [label] = (await getRowLabels(db, rows.get(7) ?? "")).filter((l) => l.metric.endsWith("safety"));
    expect(label).toMatchObject({ labelledBy: "runner@example.com", statedBy: "mallory@example.com" });
    expect((await getRowLabelHistory(db, rows.get(7) ?? ""))[0]).toMatchObject({
      labelledBy: "runner@example.com",
      statedBy: "mallory@example.com",
    });
    const [unstated] = (await getRowLabels(db, rows.get(8) ?? "")).filter((l) => l.metric.endsWith("safety"));
    expect(unstated).toMatchObject({ labelledBy: "runner@example.com", statedBy: null });

    let exported = "";
    for await (const piece of labelFilePieces(db, datasetId, "csv")) exported += piece;
    const safety = exported.split("\r\n").filter((line) => line.includes("safety"));
    expect(safety.map((line) => [line.split(",")[4], line.split(",")[6]])).toEqual([
      ["runner@example.com", "mallory@example.com"],
      ["runner@example.com", ""],
    ]);
  });

  it("with sign-in off (the local admin), is what the file says, as before", async () => {
    const result = await importLabelFile(
      db,
      datasetId,
      arrivingWhole(file.replace("no,mallory", "yes,mallory")),
      "csv",
      {
        importedBy: null,
      },
    );
    expect(result).toMatchObject({ ok: true, changed: 2 });
    const rowId = (await rowIdsByNumber(db, datasetId)).get(7) ?? "";
    // Mallory is a second person beside the runner who imported before: each keeps their own label.
    const people = await db.personLabel.findMany({
      where: { rowId, metric: { endsWith: "safety" } },
      select: { labeller: true, rating: true, statedBy: true },
      orderBy: { labeller: "asc" },
    });
    expect(people).toEqual([
      { labeller: "mallory@example.com", rating: "yes", statedBy: null },
      { labeller: "runner@example.com", rating: "no", statedBy: "mallory@example.com" },
    ]);
    const [latest] = (await getRowLabelHistory(db, rowId)).filter((l) => l.metric.endsWith("safety"));
    expect(latest).toMatchObject({ labelledBy: "mallory@example.com", statedBy: null, revision: 2 });
    // A yes and a no: a tie, so no gold label until a third person or an admin decides.
    expect((await getRowLabels(db, rowId)).filter((l) => l.metric.endsWith("safety"))).toEqual([]);
  });
});

describe("the label import route", () => {
  const params = () => ({ params: Promise.resolve({ datasetId }) });
  const post = (body: BodyInit) =>
    route.POST(
      new Request(`http://localhost/api/datasets/${datasetId}/labels`, {
        method: "POST",
        body,
        headers: { host: "localhost", "sec-fetch-site": "same-origin", "content-type": "text/csv" },
        duplex: "half",
      } as RequestInit),
      params(),
    );
  const holder = globalThis as unknown as { assayUploadGate?: UploadGate };

  it("waits for a place among the concurrent uploads", async () => {
    const saved = holder.assayUploadGate;
    holder.assayUploadGate = createUploadGate(1);
    try {
      const leave = await holder.assayUploadGate.enter(() => undefined);
      let answered = false;
      const reply = post("request_id,metric,label\nrow-9,safety,yes").then((response) => {
        answered = true;
        return response;
      });
      // Until the request reaches the gate and queues there (a fixed pause raced a busy machine's parsing).
      await vi.waitFor(() => expect(holder.assayUploadGate?.stats()).toEqual({ running: 1, waiting: 1 }), {
        timeout: 30_000,
      });
      expect(answered).toBe(false);
      leave();
      expect((await reply).status).toBe(200);
      expect(holder.assayUploadGate.stats()).toEqual({ running: 0, waiting: 0 });
    } finally {
      holder.assayUploadGate = saved;
    }
  });

  it("stops a body that stalls (ASSAY_UPLOAD_IDLE_TIMEOUT_S) and frees its place", async () => {
    process.env.ASSAY_UPLOAD_IDLE_TIMEOUT_S = "0.3";
    try {
      const stalled = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("request_id,metric,label\nrow-9,safety,no\n"));
        },
      });
      const response = await post(stalled);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        ok: false,
        error: "No data arrived for 0.3 s, so the upload was stopped. Nothing was stored; try again.",
      });
    } finally {
      delete process.env.ASSAY_UPLOAD_IDLE_TIMEOUT_S;
    }
    expect(await db.labelImportStaging.count()).toBe(0);
  });

  it("refuses a file over ASSAY_MAX_UPLOAD_ROWS records, storing nothing", async () => {
    process.env.ASSAY_MAX_UPLOAD_ROWS = "2";
    try {
      const response = await post("request_id,metric,label\nrow-1,safety,no\nrow-2,safety,no\nrow-3,safety,no");
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        ok: false,
        error:
          "This file holds more than 2 rows; Assay reads at most 2 rows per upload (ASSAY_MAX_UPLOAD_ROWS). Split it into files of at most 2 rows and upload each as its own dataset.",
      });
    } finally {
      delete process.env.ASSAY_MAX_UPLOAD_ROWS;
    }
    expect(
      (await getRowLabels(db, (await rowIdsByNumber(db, datasetId)).get(1) ?? "")).map((l) => l.metric),
    ).not.toContain("response/llm_judged/safety");
  });
});
