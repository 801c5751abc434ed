// npm run bench:ui — seeds two runs of 10,000 rows × 7 metrics × 5 chunks into
// a fresh store, starts the production server, and prints the median server
// response time (full body, 10 requests each) of the run page, the failed-rows
// table on pages 1 and 200, a row's drill-down, and the compare page. Then a
// 1,000-row dataset with human labels on every row and two runs: the run page
// with its agreement panel, the disagreement filter, a confusion cell's rows,
// the labelling queue and the compare page's agreement table (issue 12).
import http from "node:http";
import { createDb } from "../../lib/db/client";
import { closeDirectConnection } from "../../lib/db/store/directSqlite";
import { findFailedRowId } from "../../lib/db/runs/runQueries";
import { applyPendingMigrations } from "../../lib/db/migrations/applyMigrations";
import { seedLabels } from "./seedLabels";
import { seedLargeRuns } from "./seedLargeRuns";
import { processTreeRss, startServerForBench } from "./startServerForBench";

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const REPEATS = 10;
const LABELLED_ROWS = 1_000;

async function main(): Promise<void> {
  const server = await startServerForBench({ skipBuild: process.env.BENCH_SKIP_BUILD === "1" });
  try {
    await applyPendingMigrations(server.databaseUrl);
    const seedStarted = performance.now();
    const { runIds } = await seedLargeRuns(server.databaseUrl, ROWS, 5);
    closeDirectConnection(server.databaseUrl);
    console.log(
      `seeded 2 runs × ${ROWS.toLocaleString("en-US")} rows × 7 metrics × 5 chunks in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );
    const db = createDb(server.databaseUrl);
    const [a, b] = runIds;
    const failedRowId = await findFailedRowId(db, a);
    if (!failedRowId) throw new Error("the seeded run has no failed row");
    await db.$disconnect();

    const labelled = await seedLargeRuns(server.databaseUrl, LABELLED_ROWS, 5);
    const labels = await seedLabels(server.databaseUrl, labelled.datasetId, 5);
    closeDirectConnection(server.databaseUrl);
    console.log(
      `seeded 2 runs × ${LABELLED_ROWS.toLocaleString("en-US")} rows with ${labels.toLocaleString("en-US")} human labels`,
    );
    const [la, lb] = labelled.runIds;
    const groundedness = encodeURIComponent("response/llm_judged/groundedness");

    const pages: [string, string, number][] = [
      ["run page", `/runs/${a}`, 300],
      [
        "failed-rows table, filtered, page 1",
        `/runs/${a}?filter=failed&metric=${encodeURIComponent("response/llm_judged/correctness")}&page=1`,
        300,
      ],
      ["failed-rows table, filtered, page 200", `/runs/${a}?filter=failed&page=200`, 300],
      ["row drill-down", `/runs/${a}/rows/${failedRowId}?filter=failed`, 300],
      ["compare page", `/compare?runs=${a},${b}&baseline=${a}`, 1000],
      ["labelled 1k: run page + agreement panel", `/runs/${la}`, 300],
      ["labelled 1k: judge disagrees filter", `/runs/${la}?filter=disagrees`, 300],
      ["labelled 1k: a confusion cell's rows", `/runs/${la}?filter=cell&metric=${groundedness}&cell=yes-no`, 300],
      ["labelled 1k: labelling queue", `/runs/${la}/label?queue=${groundedness}&target=200`, 300],
      ["labelled 1k: compare + agreement table", `/compare?runs=${la},${lb}&baseline=${la}`, 1000],
    ];
    console.log(`\nmedian of ${REPEATS} (after one warm-up request), server response time to the full body:`);
    let peak = processTreeRss(server.pid);
    for (const [label, path, target] of pages) {
      await timeGet(server.baseUrl + path);
      const times: number[] = [];
      for (let i = 0; i < REPEATS; i++) {
        times.push(await timeGet(server.baseUrl + path));
        peak = Math.max(peak, processTreeRss(server.pid));
      }
      times.sort((x, y) => x - y);
      const median = (times[4] + times[5]) / 2;
      console.log(
        `  ${label.padEnd(40)} ${median.toFixed(0).padStart(5)} ms  (min ${times[0].toFixed(0)}, max ${times[times.length - 1].toFixed(0)}; target < ${target} ms) ${median < target ? "ok" : "OVER"}`,
      );
    }
    console.log(`\nserver RSS peak during the requests: ${(peak / 1048576).toFixed(0)} MB`);
  } finally {
    server.stop();
  }
}

/** GET a page and read it to the end; status must be 200. */
function timeGet(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(url, (response) => {
        response.resume();
        response.on("end", () =>
          response.statusCode === 200
            ? resolve(performance.now() - started)
            : reject(new Error(`${url} answered ${response.statusCode}`)),
        );
      })
      .on("error", reject);
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
