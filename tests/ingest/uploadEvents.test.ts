import { describe, expect, it } from "vitest";
import { uploadEventSchema, type UploadEvent } from "@/lib/ingest/uploadProtocol";

/** The browser reads the upload route's NDJSON lines through uploadEventSchema (components/datasets/sendUpload.ts). */
describe("upload events as the browser reads them", () => {
  const roundTrip = (event: UploadEvent) => uploadEventSchema.parse(JSON.parse(JSON.stringify(event)));

  it("reads back every event the route sends", () => {
    const events: UploadEvent[] = [
      { type: "progress", bytes: 65536, rows: 120, issues: 2 },
      {
        type: "result",
        ok: true,
        datasetId: "d1",
        rowCount: 118,
        skippedRows: 2,
        warnings: ["w"],
        issues: ["Row 3 (line 3), column request: empty"],
        issueCount: 2,
      },
      {
        type: "result",
        ok: false,
        fileError: null,
        issues: [],
        issueCount: 0,
        rowsRead: 5,
        validRows: 4,
        warnings: [],
      },
      { type: "result", ok: false, fileError: "The file is empty.", issues: [], issueCount: 0, warnings: [] },
    ];
    for (const event of events) expect(roundTrip(event)).toEqual(event);
  });

  it("refuses a JSON line that is not an upload event, so it is never taken for the result", () => {
    expect(uploadEventSchema.safeParse({ error: "Bad gateway" }).success).toBe(false);
    expect(uploadEventSchema.safeParse({ type: "result", ok: false }).success).toBe(false);
  });
});
