// Run as a child process by tests/ingest/unknownColumns.test.ts, so its RSS is
// its own: uploads one JSONL line with N distinct unknown keys into a real
// SQLite file and prints, as one JSON line, the stored warnings' size and the
// process's RSS before and at its peak (sampled every 5 ms while the upload runs).
import { createDatasetSink } from "@/lib/db/datasets/datasetWrites";
import { ingestUpload } from "@/lib/ingest/ingestUpload";
import { createTempDb } from "../../support/tempDb";
import { byteChunks } from "../../support/evalFiles";

async function main(): Promise<void> {
  const keyCount = Number(process.argv[2]);
  const { db, cleanup } = await createTempDb();
  try {
    const keys = Array.from({ length: keyCount }, (_, i) => `"x${i.toString(36)}":0`).join(",");
    const line = Buffer.from(`{"request":"What is 2+2?","response":"4",${keys}}\n`);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const result = await ingestUpload({
      chunks: byteChunks(line, 64 * 1024),
      filename: "wide.jsonl",
      mode: "strict",
      sink: createDatasetSink(db),
    });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const stored = result.ok
      ? await db.dataset.findUniqueOrThrow({ where: { id: result.datasetId }, select: { warnings: true } })
      : null;
    console.log(
      JSON.stringify({
        ok: result.ok,
        lineBytes: line.length,
        warningCount: result.warnings.length,
        storedWarningsBytes: stored ? Buffer.byteLength(stored.warnings) : null,
        firstWarning: result.warnings[0]?.slice(0, 400) ?? null,
        rssBeforeMb: before / 2 ** 20,
        rssPeakMb: peak / 2 ** 20,
      }),
    );
  } finally {
    await cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
