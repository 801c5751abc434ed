import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ingestUpload } from "@/lib/ingest/ingestUpload";
import { describeUnknownColumns, newUnknownColumns, noteUnknownColumns } from "@/lib/ingest/unknownColumns";
import { collectingSink } from "../support/collectingSink";
import { byteChunks, toJsonl } from "../support/evalFiles";
import { endWithThisProcess } from "../support/processCleanup";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SCHEMA =
  "(Agent Evaluation input schema columns: request_id, request, response, expected_facts, expected_response, expected_retrieved_context, retrieved_context, trace; plus human_labels, tool_calls, expected_tool_calls, session_id).";

describe("unknown columns: one bounded warning", () => {
  it("names one column alone", () => {
    const unknown = newUnknownColumns();
    noteUnknownColumns(unknown, { request: "q", score_v2: 1 });
    noteUnknownColumns(unknown, { request: "q", score_v2: 2 });
    expect(describeUnknownColumns(unknown)).toBe(`Unknown column "score_v2" was ignored ${SCHEMA}`);
  });

  it("names the first five and counts the rest, across rows, each name once", () => {
    const unknown = newUnknownColumns();
    noteUnknownColumns(unknown, { a: 1, b: 1, request: "q", c: 1 });
    noteUnknownColumns(unknown, { a: 1, d: 1, e: 1, f: 1, g: 1 });
    expect(describeUnknownColumns(unknown)).toBe(
      `Unknown columns "a", "b", "c", "d", "e" and 2 others were ignored ${SCHEMA}`,
    );
  });

  it("cuts a long name and says nothing when every column is known", () => {
    const unknown = newUnknownColumns();
    expect(describeUnknownColumns(unknown)).toBeNull();
    noteUnknownColumns(unknown, { request: "q", response: "a", ["k".repeat(10_000)]: 1 });
    expect(describeUnknownColumns(unknown)).toBe(`Unknown column "${"k".repeat(60)}…" was ignored ${SCHEMA}`);
  });

  it("an upload whose rows bring 5,000 distinct unknown columns gets one warning under 1 KB", async () => {
    const rows = Array.from({ length: 50 }, (_, r) => ({
      request: `q${r}`,
      response: "a",
      ...Object.fromEntries(Array.from({ length: 100 }, (_, k) => [`col_${r}_${k}`, k])),
    }));
    const { sink, state } = collectingSink();
    const result = await ingestUpload({
      chunks: byteChunks(toJsonl(rows), 4096),
      filename: "w.jsonl",
      mode: "strict",
      sink,
    });
    expect(result.ok).toBe(true);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(
      /^Unknown columns "col_0_0", "col_0_1", "col_0_2", "col_0_3", "col_0_4" and at least 995 others were ignored/,
    );
    expect(Buffer.byteLength(JSON.stringify(state.committed?.warnings))).toBeLessThan(1024);
  });
});

const wideRowReportSchema = z.object({
  ok: z.boolean(),
  lineBytes: z.number(),
  warningCount: z.number(),
  storedWarningsBytes: z.number(),
  firstWarning: z.string(),
  rssBeforeMb: z.number(),
  rssPeakMb: z.number(),
});
type WideRowReport = z.infer<typeof wideRowReportSchema>;

/** The upload in a process of its own (tests/ingest/support/wideRowUpload.ts), so its RSS is the upload's alone. */
function uploadWideRowInChild(keyCount: number): Promise<WideRowReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--expose-gc", "--import", "tsx", "tests/ingest/support/wideRowUpload.ts", String(keyCount)],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    const untrack = endWithThisProcess(child, { group: false });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data) => (stdout += data));
    child.stderr.on("data", (data) => (stderr += data));
    child.once("error", reject);
    child.once("close", (code) => {
      untrack();
      if (code !== 0) reject(new Error(`wideRowUpload exited ${code}: ${stderr}`));
      else resolve(wideRowReportSchema.parse(JSON.parse(stdout.trim().split("\n").at(-1) ?? "")));
    });
  });
}

describe("a 6 MB JSONL line with 600,000 distinct keys", () => {
  // Before: 600,000 warnings, a 120 MB warnings string stored, and about 835 MB of RSS growth in this process.
  it("stores one warning of a few hundred bytes and keeps RSS growth bounded", { timeout: 120_000 }, async () => {
    const report = await uploadWideRowInChild(600_000);
    console.log(
      `[unknown columns] line ${(report.lineBytes / 2 ** 20).toFixed(1)} MB; stored warnings ${report.storedWarningsBytes} bytes; ` +
        `RSS ${report.rssBeforeMb.toFixed(0)} MB before, ${report.rssPeakMb.toFixed(0)} MB peak (+${(report.rssPeakMb - report.rssBeforeMb).toFixed(0)} MB)`,
    );
    expect(report.ok).toBe(true);
    expect(report.lineBytes).toBeGreaterThan(5.5 * 2 ** 20);
    expect(report.warningCount).toBe(1);
    expect(report.firstWarning).toMatch(
      /^Unknown columns "x0", "x1", "x2", "x3", "x4" and 599,995 others were ignored/,
    );
    expect(report.storedWarningsBytes).toBeLessThan(1024);
    expect(report.rssPeakMb - report.rssBeforeMb).toBeLessThan(350);
  });
});
