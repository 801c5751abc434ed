// npm run bench:upload — uploads a 20,000-row JSONL (5 chunks per row) to the
// production server over HTTP, the way the browser does, and prints the time
// taken and the server's peak memory. Not a test: it measures.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, createDb } from "../../lib/db/client";
import { countDatasetContents } from "../../lib/db/datasets/datasetQueries";
import { processTreeRss, startServerForBench } from "./startServerForBench";

const ROWS = Number(process.env.BENCH_ROWS ?? 20_000);
const CHUNKS = 5;
const MB = 1024 * 1024;

function writeDataset(file: string): number {
  const out = fs.openSync(file, "w");
  const filler =
    "Lifecycle rules run once a day at 00:00 UTC and expire objects whose age exceeds the configured number of days. ";
  for (let i = 0; i < ROWS; i++) {
    const row = {
      request_id: `bench-${i}`,
      request:
        i % 3 === 0
          ? `How do I configure rule ${i}?`
          : i % 3 === 1
            ? { messages: [{ role: "user", content: `Question ${i} about buckets?` }] }
            : {
                query: `Follow-up ${i}?`,
                history: [
                  { role: "user", content: "Earlier question" },
                  { role: "assistant", content: "Earlier answer" },
                ],
              },
      response: `To configure rule ${i}, open the bucket settings and add an expiration action. ${filler}`,
      expected_facts: [`rule ${i} expires objects`, "rules run daily"],
      retrieved_context: Array.from({ length: CHUNKS }, (_, c) => ({
        content: `${filler.repeat(2)} (chunk ${c} of row ${i})`,
        doc_uri: `https://docs.northwind.example/storage/doc-${(i + c) % 500}`,
      })),
      expected_retrieved_context: [{ doc_uri: `https://docs.northwind.example/storage/doc-${i % 500}` }],
    };
    fs.writeSync(out, `${JSON.stringify(row)}\n`);
  }
  fs.closeSync(out);
  return fs.statSync(file).size;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-bench-upload-"));
  const file = path.join(dir, "bench-20k.jsonl");
  const size = writeDataset(file);
  console.log(`dataset: ${ROWS.toLocaleString("en-US")} rows × ${CHUNKS} chunks, ${(size / MB).toFixed(1)} MB`);

  const server = await startServerForBench({ skipBuild: process.env.BENCH_SKIP_BUILD === "1" });
  try {
    // Warm the route once so compilation-on-first-hit does not count.
    await fetch(`${server.baseUrl}/api/datasets/upload?filename=warm.jsonl`, {
      method: "POST",
      body: '{"request":"warm"}\n',
    }).then((r) => r.text());
    const baseline = processTreeRss(server.pid);
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, processTreeRss(server.pid));
    }, 50);

    const started = performance.now();
    const response = await fetch(`${server.baseUrl}/api/datasets/upload?filename=bench-20k.jsonl&name=bench`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream", "content-length": String(size) },
      body: fs.createReadStream(file) as unknown as BodyInit,
      duplex: "half",
    } as RequestInit & { duplex: "half" });
    const events = (await response.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, processTreeRss(server.pid));

    const result = events.at(-1);
    if (!result?.ok) throw new Error(`upload failed: ${JSON.stringify(result).slice(0, 500)}`);
    const db = createDb(server.databaseUrl);
    const { rows, chunks } = await countDatasetContents(db, result.datasetId);
    await closeDb(db);

    console.log(`progress events: ${events.length - 1}`);
    console.log(`stored: ${rows.toLocaleString("en-US")} rows, ${chunks.toLocaleString("en-US")} chunk rows`);
    console.log(
      `time: ${seconds.toFixed(1)} s (${Math.round(rows / seconds).toLocaleString("en-US")} rows/s, ${(size / MB / seconds).toFixed(1)} MB/s)`,
    );
    console.log(
      `server RSS: ${(baseline / MB).toFixed(0)} MB before, ${(peak / MB).toFixed(0)} MB peak (+${((peak - baseline) / MB).toFixed(0)} MB for a ${(size / MB).toFixed(0)} MB file)`,
    );
  } finally {
    server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
