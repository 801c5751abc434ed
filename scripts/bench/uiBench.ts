// npm run bench:ui — for each store (SQLite, then a throwaway PostgreSQL from npm; BENCH_STORES=sqlite or
// postgres for one), seeds two runs of BENCH_ROWS rows (10,000 by default, up to 1,000,000) × 7 metrics × 5
// chunks into a fresh database (PostgreSQL is then vacuumed, as autovacuum leaves a store that was written over
// hours), starts the production server on it, and prints the server response time (full body; median, min and
// max of 10) of the run page, the failed-rows table on its first page and far in, a row's drill-down, the
// table sorted by a metric (and a drill-down from it), the dataset page and the compare page, each against its
// target (compare's median once its background reads are done, with how long after the first request they took).
// Then a 1,000-row dataset with human labels on every row and two runs: the run page with its
// agreement panel, the disagreement filter, a confusion cell's rows, the labelling queue and the compare
// page's agreement table. Then two runs of BENCH_TRIAL_ROWS rows (BENCH_ROWS by default) that judged every row
// 3 times (trials): the run page with its trials panel, the flaky filter, the table sorted by a metric, a row's
// drill-down with every trial, and compare (each row's mean over its trials, tested over rows). BENCH_PARTS
// (runs, pairwise, labels, trials, people; all by default) picks the parts; pairwise adds to the first two runs a
// completed pairwise comparison in both orders: compare with its result, the pairs B lost, and one side by side.
// people: BENCH_PEOPLE_ROWS rows (100,000 by default) with three people's labels each on one metric, imported
// through the label import (its time printed), and two runs: the run page with the people's agreement, the
// rows where people differ, and compare's agreement table. The server's RSS peak has a target too (200 MB).
// The last line says whether every target held on every store.
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { closeDb, createDb } from "../../lib/db/client";
import { closeDirectConnection } from "../../lib/db/store/directSqlite";
import { startLocalPostgres, type LocalPostgres } from "../../lib/db/store/embeddedPostgres";
import { runStatement } from "../../lib/db/store/postgresAdmin";
import { findFailedRowId } from "../../lib/db/runs/runQueries";
import { applyPendingMigrations } from "../../lib/db/migrations/applyMigrations";
import { seedLabels } from "./seedLabels";
import { seedLargeRuns } from "./seedLargeRuns";
import { seedPairwise } from "./seedPairwise";
import { PEOPLE_METRIC, seedPeopleLabels } from "./seedPeopleLabels";
import { listPairwiseComparisons } from "../../lib/db/pairwise/pairwiseComparisons";
import { listDecidedPairs } from "../../lib/db/pairwise/pairwiseRows";
import { processTreeRss, startServerForBench } from "./startServerForBench";

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const REPEATS = 10;
const LABELLED_ROWS = 1_000;
const PAGE_SIZE = 25;
const TRIAL_ROWS = Number(process.env.BENCH_TRIAL_ROWS ?? ROWS);
const TRIALS = 3;
const PARTS = new Set(
  (process.env.BENCH_PARTS ?? "runs,pairwise,labels,trials,people").split(",").map((part) => part.trim()),
);
const PEOPLE_ROWS = Number(process.env.BENCH_PEOPLE_ROWS ?? 100_000);
const STORES = (process.env.BENCH_STORES ?? "sqlite,postgres")
  .split(",")
  .map((store) => store.trim())
  .filter(Boolean);

// The web server's resident memory (with its children) through every page of the run: a team's server
// shares a small machine with its workers.
const SERVER_RSS_TARGET = 200 * 1048576;

type Store = "sqlite" | "postgres";
type Timing = { label: string; median: number; min: number; max: number; target: number };

async function main(): Promise<void> {
  if (!Number.isInteger(ROWS) || ROWS < 100 || ROWS > 1_000_000)
    throw new Error("BENCH_ROWS must be a whole number from 100 to 1,000,000");
  const unknown = STORES.filter((store) => store !== "sqlite" && store !== "postgres");
  if (unknown.length > 0 || STORES.length === 0)
    throw new Error(`BENCH_STORES takes sqlite, postgres or both, not "${process.env.BENCH_STORES}"`);
  let built = process.env.BENCH_SKIP_BUILD === "1";
  const missed: string[] = [];
  for (const store of STORES as Store[]) {
    const { timings, peakRss } = await benchStore(store, !built);
    built = true;
    for (const timing of timings) if (timing.median >= timing.target) missed.push(`${store}: ${timing.label}`);
    if (peakRss >= SERVER_RSS_TARGET)
      missed.push(`${store}: server RSS peak ${mb(peakRss)} MB (target < ${mb(SERVER_RSS_TARGET)} MB)`);
  }
  console.log(
    missed.length === 0
      ? `\nevery target held on every store (${STORES.join(", ")}) at ${ROWS.toLocaleString("en-US")} rows`
      : `\ntargets missed at ${ROWS.toLocaleString("en-US")} rows: ${missed.join("; ")}`,
  );
  if (missed.length > 0) process.exitCode = 1;
}

async function benchStore(store: Store, build: boolean): Promise<{ timings: Timing[]; peakRss: number }> {
  let postgres: LocalPostgres | null = null;
  let databaseUrl: string | undefined;
  if (store === "postgres") {
    postgres = await startLocalPostgres({
      dir: path.join(os.tmpdir(), `assay-bench-ui-${process.pid}`),
      persistent: false,
    });
    await postgres.query(`CREATE DATABASE "bench"`);
    databaseUrl = postgres.url("bench");
  }
  const server = await startServerForBench({ skipBuild: !build, databaseUrl });
  try {
    console.log(`\n== ${store === "sqlite" ? "SQLite" : "PostgreSQL"}`);
    await applyPendingMigrations(server.databaseUrl);
    const pages: [string, string, number][] = [];
    if (PARTS.has("runs")) pages.push(...(await runPages(server.databaseUrl)));
    if (PARTS.has("labels")) pages.push(...(await labelledPages(server.databaseUrl)));
    if (PARTS.has("trials")) pages.push(...(await trialPages(server.databaseUrl)));
    if (PARTS.has("people")) pages.push(...(await peoplePages(server.databaseUrl)));
    if (postgres) {
      // The seed writes 1.4 million rows in minutes, which a run never does (it writes its judgments over hours,
      // and autovacuum keeps pace). Vacuumed here, autovacuum's pass over them cannot fall during the requests:
      // the store is measured as a team's would be, settled.
      const vacuumStarted = performance.now();
      await runStatement(server.databaseUrl, "VACUUM (ANALYZE)");
      console.log(`vacuumed and analyzed in ${((performance.now() - vacuumStarted) / 1000).toFixed(1)} s`);
    }
    console.log(`median of ${REPEATS} (after one warm-up request), server response time to the full body:`);
    let peak = processTreeRss(server.pid);
    const timings: Timing[] = [];
    for (const [label, pagePath, target] of pages) {
      // The first request reads what a completed run's later ones take from memory: said beside the median.
      const first = await timeGet(server.baseUrl + pagePath);
      // Compare answers by its deadline with what is not ready marked "computing…", and goes on in the
      // background: the median is of complete pages, after it.
      if (pagePath.startsWith("/compare")) {
        const seconds = await awaitCompleteComparison(server.baseUrl + pagePath, ROWS);
        console.log(`    ${label}: every test and judge computed ${seconds.toFixed(1)} s after the first request`);
      }
      const times: number[] = [];
      // The server's RSS after this page's requests: which page's reads grow it.
      let pageRss = 0;
      for (let i = 0; i < REPEATS; i++) {
        times.push(await timeGet(server.baseUrl + pagePath));
        pageRss = Math.max(pageRss, processTreeRss(server.pid));
      }
      peak = Math.max(peak, pageRss);
      times.sort((x, y) => x - y);
      const timing = { label, median: (times[4] + times[5]) / 2, min: times[0], max: times[times.length - 1], target };
      timings.push(timing);
      console.log(
        `  ${label.padEnd(40)} ${timing.median.toFixed(0).padStart(5)} ms  (min ${timing.min.toFixed(0)}, max ${timing.max.toFixed(0)}, first ${first.toFixed(0)}; target < ${target} ms) ${timing.median < target ? "ok" : "OVER"} · server ${mb(pageRss)} MB`,
      );
    }
    console.log(
      `server RSS peak during the requests: ${mb(peak)} MB (target < ${mb(SERVER_RSS_TARGET)} MB) ${peak < SERVER_RSS_TARGET ? "ok" : "OVER"}`,
    );
    return { timings, peakRss: peak };
  } finally {
    server.stop();
    await postgres?.stop();
  }
}

/** Two runs of ROWS rows: the run page, the failed-rows table near and far, drill-downs, sorts, dataset, compare. */
async function runPages(databaseUrl: string): Promise<[string, string, number][]> {
  const seedStarted = performance.now();
  const { datasetId, runIds } = await seedLargeRuns(databaseUrl, ROWS, 5);
  closeDirectConnection(databaseUrl);
  console.log(
    `seeded 2 runs × ${ROWS.toLocaleString("en-US")} rows × 7 metrics × 5 chunks in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
  );
  const [a, b] = runIds;
  const failedRowId = await failedRowOf(databaseUrl, a);
  const correctness = encodeURIComponent("response/llm_judged/correctness");
  // Far into the failed rows: page 200 at 10,000 rows and more, or the last page of a smaller run.
  const farPage = Math.max(1, Math.min(200, Math.floor((ROWS * 0.6) / PAGE_SIZE)));
  return [
    ["run page", `/runs/${a}`, 300],
    ["failed-rows table, filtered, page 1", `/runs/${a}?filter=failed&metric=${correctness}&page=1`, 300],
    [`failed-rows table, filtered, page ${farPage}`, `/runs/${a}?filter=failed&page=${farPage}`, 300],
    ["row drill-down", `/runs/${a}/rows/${failedRowId}?filter=failed`, 100],
    // Sorted by a metric, worst first: the verdict and score of every row of the filter, ordered.
    ["sorted by a metric, page 1", `/runs/${a}?sort=${correctness}&dir=asc&page=1`, 300],
    [
      `failed rows sorted by a metric, page ${farPage}`,
      `/runs/${a}?filter=failed&sort=${correctness}&dir=asc&page=${farPage}`,
      300,
    ],
    [
      "row drill-down, sorted by a metric",
      `/runs/${a}/rows/${failedRowId}?filter=failed&sort=${correctness}&dir=asc`,
      100,
    ],
    ["dataset page", `/datasets/${datasetId}`, 300],
    ["compare page", `/compare?runs=${a},${b}&baseline=${a}`, 1000],
    ...(PARTS.has("pairwise") ? await pairwisePages(databaseUrl, a, b) : []),
  ];
}

/** A completed pairwise comparison of the two runs: compare with its result, the pairs B lost, one side by side. */
async function pairwisePages(databaseUrl: string, a: string, b: string): Promise<[string, string, number][]> {
  const seedStarted = performance.now();
  await seedPairwise(databaseUrl, a, b);
  closeDirectConnection(databaseUrl);
  console.log(
    `seeded a pairwise comparison of both orders × ${ROWS.toLocaleString("en-US")} rows in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
  );
  const db = createDb(databaseUrl);
  const [comparison] = await listPairwiseComparisons(db, a, b);
  if (!comparison) throw new Error("the seeded pairwise comparison is missing");
  const lost = await listDecidedPairs(db, comparison, "overall", { direction: "regressions", offset: 0, limit: 1 });
  await closeDb(db);
  const pairwise = encodeURIComponent("pairwise/overall");
  const rowId = lost.items[0]?.rowId ?? "";
  return [
    ["compare page with a pairwise result", `/compare?runs=${a},${b}&baseline=${a}`, 1000],
    ["pairs B lost, page 1", `/compare?runs=${a},${b}&baseline=${a}&metric=${pairwise}&direction=regressions`, 1000],
    [
      "side by side from the pairs B lost",
      `/compare/row?baseline=${a}&candidate=${b}&row=${rowId}&metric=${pairwise}&listMetric=${pairwise}&direction=regressions`,
      300,
    ],
  ];
}

/** Two runs of 1,000 labelled rows: the agreement panel, its filters, the labelling queue, compare's agreement. */
async function labelledPages(databaseUrl: string): Promise<[string, string, number][]> {
  const labelled = await seedLargeRuns(databaseUrl, LABELLED_ROWS, 5);
  const labels = await seedLabels(databaseUrl, labelled.datasetId, 5);
  closeDirectConnection(databaseUrl);
  console.log(
    `seeded 2 runs × ${LABELLED_ROWS.toLocaleString("en-US")} rows with ${labels.toLocaleString("en-US")} human labels`,
  );
  const [la, lb] = labelled.runIds;
  const groundedness = encodeURIComponent("response/llm_judged/groundedness");
  return [
    ["labelled 1k: run page + agreement panel", `/runs/${la}`, 300],
    ["labelled 1k: judge disagrees filter", `/runs/${la}?filter=disagrees`, 300],
    ["labelled 1k: a confusion cell's rows", `/runs/${la}?filter=cell&metric=${groundedness}&cell=yes-no`, 300],
    ["labelled 1k: labelling queue", `/runs/${la}/label?queue=${groundedness}&target=200`, 300],
    ["labelled 1k: compare + agreement table", `/compare?runs=${la},${lb}&baseline=${la}`, 1000],
  ];
}

/** Two runs of PEOPLE_ROWS rows, each labelled by three people on one metric: their agreement, where they differ. */
async function peoplePages(databaseUrl: string): Promise<[string, string, number][]> {
  const seedStarted = performance.now();
  const { datasetId, runIds } = await seedLargeRuns(databaseUrl, PEOPLE_ROWS, 1);
  closeDirectConnection(databaseUrl);
  console.log(
    `seeded 2 runs × ${PEOPLE_ROWS.toLocaleString("en-US")} rows × 7 metrics × 1 chunk in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
  );
  const { labels, seconds } = await seedPeopleLabels(databaseUrl, datasetId, PEOPLE_ROWS);
  closeDirectConnection(databaseUrl);
  console.log(`imported ${labels.toLocaleString("en-US")} labels of three people in ${seconds.toFixed(1)} s`);
  const [pa, pb] = runIds;
  const metric = encodeURIComponent(PEOPLE_METRIC);
  const label = `3 people × ${PEOPLE_ROWS.toLocaleString("en-US")} rows:`;
  return [
    [`${label} run page + people's agreement`, `/runs/${pa}`, 300],
    [`${label} rows where people differ`, `/runs/${pa}?filter=people-differ&metric=${metric}`, 300],
    [`${label} compare + agreement table`, `/compare?runs=${pa},${pb}&baseline=${pa}`, 1000],
  ];
}

/** Two runs of TRIAL_ROWS rows judged 3 times each: the trials panel, the flaky filter, sorts, drill-down, compare. */
async function trialPages(databaseUrl: string): Promise<[string, string, number][]> {
  const seedStarted = performance.now();
  const { runIds } = await seedLargeRuns(databaseUrl, TRIAL_ROWS, 5, { trials: TRIALS });
  closeDirectConnection(databaseUrl);
  console.log(
    `seeded 2 runs × ${TRIAL_ROWS.toLocaleString("en-US")} rows × 7 metrics × ${TRIALS} trials in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
  );
  const [ta, tb] = runIds;
  const failedRowId = await failedRowOf(databaseUrl, ta);
  const correctness = encodeURIComponent("response/llm_judged/correctness");
  const far = Math.max(1, Math.min(200, Math.floor((TRIAL_ROWS * 0.3) / PAGE_SIZE)));
  const label = `trials ×${TRIALS}, ${TRIAL_ROWS.toLocaleString("en-US")} rows:`;
  return [
    [`${label} run page + trials panel`, `/runs/${ta}`, 300],
    [`${label} flaky rows, page 1`, `/runs/${ta}?filter=flaky&page=1`, 300],
    [`${label} flaky on a metric, page ${far}`, `/runs/${ta}?filter=flaky&metric=${correctness}&page=${far}`, 300],
    [`${label} sorted by a metric, page 1`, `/runs/${ta}?sort=${correctness}&dir=asc&page=1`, 300],
    [`${label} row drill-down, every trial`, `/runs/${ta}/rows/${failedRowId}?filter=flaky`, 100],
    [`${label} compare page`, `/compare?runs=${ta},${tb}&baseline=${ta}`, 1000],
  ];
}

async function failedRowOf(databaseUrl: string, runId: string): Promise<string> {
  const db = createDb(databaseUrl);
  try {
    const rowId = await findFailedRowId(db, runId);
    if (!rowId) throw new Error("the seeded run has no failed row");
    return rowId;
  } finally {
    await closeDb(db);
  }
}

/**
 * Compare answers by its deadline with what is not ready marked as being computed (the paired counts and the
 * judges of large completed runs, score metrics' paired bootstrap) and finishes it in the background; its median,
 * and the next pages, are measured once it is, each on a server doing nothing else. Gives up after 2 minutes per
 * 100,000 rows; returns the seconds it waited.
 */
async function awaitCompleteComparison(url: string, rows: number): Promise<number> {
  const started = performance.now();
  const limitMs = 120_000 * Math.max(1, rows / 100_000);
  const computing = (page: string) =>
    ["Significance still being computed", "run-judging-pending", "flips-pending"].some((mark) => page.includes(mark));
  while (computing(await (await fetch(url)).text())) {
    if (performance.now() - started > limitMs)
      throw new Error(`${url} still computing after ${(limitMs / 1000).toFixed(0)} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return (performance.now() - started) / 1000;
}

const mb = (bytes: number) => (bytes / 1048576).toFixed(0);

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
