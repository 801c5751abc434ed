// Files as people save them: what spreadsheets, editors and Windows tools
// write, through the real ingest path into a real SQLite file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createTempDb } from "../support/tempDb";
import { ingestIntoDb } from "./ingestIntoTempDb";

let db: Db;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTempDb()));
afterAll(async () => cleanup());

describe("a .json array with a trailing comma", () => {
  const file = '[\n  {"request": "a", "response": "x"},\n  {"request": "b", "response": "y"},\n]\n';

  it("is a file error naming the line and column of the comma, and stores nothing", async () => {
    for (const chunkBytes of [4096, 7, 1]) {
      const { result, added } = await ingestIntoDb(db, "trailing.json", file, "validRowsOnly", undefined, chunkBytes);
      expect(result).toMatchObject({
        ok: false,
        fileError:
          "The JSON array has a comma after its last element (line 3, column 36), which JSON does not allow; remove it.",
      });
      expect(added).toEqual({ datasets: 0, rows: 0 });
    }
  });

  it("still accepts the same array without the comma, and a comma inside an element's strings", async () => {
    const fixed = '[\n  {"request": "a, ]", "response": "x"},\n  {"request": "b", "response": "y"}\n]\n';
    const { result, storedRows } = await ingestIntoDb(db, "fixed.json", fixed, "strict");
    expect(result).toMatchObject({ ok: true, rowCount: 2 });
    expect(storedRows.map((row) => row.requestText)).toEqual(["a, ]", "b"]);
  });
});
