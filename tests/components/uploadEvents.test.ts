// The upload panel's reading of the upload route's NDJSON stream (components/datasets/uploadEvents.ts):
// a queued line shows until the upload runs, rows are counted, a result ends it, and partial or foreign
// lines are left alone.
import { describe, expect, it } from "vitest";
import { INITIAL_UPLOAD_STREAM, readUploadEvents } from "@/components/datasets/uploadEvents";

const QUEUED = "Queued: 1 upload is in progress. Yours starts when one finishes.";
const line = (event: object) => `${JSON.stringify(event)}\n`;

describe("reading the upload stream", () => {
  it("says the upload is queued until a progress line without `queued` arrives, then counts rows", () => {
    let text = line({ type: "progress", bytes: 0, rows: 0, issues: 0, queued: QUEUED });
    let state = readUploadEvents(text, INITIAL_UPLOAD_STREAM);
    expect(state).toMatchObject({ queued: QUEUED, rowsRead: 0, result: null });

    text += line({ type: "progress", bytes: 0, rows: 0, issues: 0 });
    state = readUploadEvents(text, state);
    expect(state.queued).toBeNull();

    text += line({ type: "progress", bytes: 4096, rows: 120, issues: 1 });
    state = readUploadEvents(text, state);
    expect(state).toMatchObject({ queued: null, rowsRead: 120 });
  });

  it("waits for the rest of a partial line, and reads the result", () => {
    const result = { type: "result", ok: true, datasetId: "d1", rowCount: 2, issues: [], issueCount: 0, warnings: [] };
    const whole = line({ type: "progress", bytes: 0, rows: 0, issues: 0, queued: QUEUED }) + line(result);
    const cut = whole.length - 10;
    const partial = readUploadEvents(whole.slice(0, cut), INITIAL_UPLOAD_STREAM);
    expect(partial).toMatchObject({ queued: QUEUED, result: null });
    const done = readUploadEvents(whole, partial);
    expect(done.result).toEqual(result);
    expect(done.queued).toBeNull();
    expect(done.parsedUpTo).toBe(whole.length);
  });

  it("ignores foreign lines (a proxy's page) and lines of another shape", () => {
    const text = `<html>502 Bad Gateway</html>\n${line({ type: "progress", rows: "many" })}${line({ type: "progress", bytes: 1, rows: 3, issues: 0 })}`;
    expect(readUploadEvents(text, INITIAL_UPLOAD_STREAM)).toMatchObject({ rowsRead: 3, queued: null, result: null });
  });
});
