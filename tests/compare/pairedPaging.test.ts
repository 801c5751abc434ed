import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clearFlipPages, flipPageCounts, readFlipPage } from "@/lib/compare/flipPages";
import { compareRuns } from "@/lib/compare/compareRuns";
import { clearCompletedRunReads } from "@/lib/db/cache/completedRunReads";
import { sqlOf, type Db } from "@/lib/db/client";
import { cursorOf, getPairedCounts, listFlips, type Flip } from "@/lib/db/judgments/compareQueries";
import { getRunProvenance } from "@/lib/db/judgments/judgeProvenanceQueries";
import { resetJudgmentsForRejudge } from "@/lib/db/runs/rejudgeWork";
import { getRun } from "@/lib/db/runs/runQueries";
import { createTempDb, type TempDb } from "../support/tempDb";
import {
  expectedPairing,
  insertDatasetRows,
  insertJudgedRun,
  PAIRED_METRICS,
  SCORED,
  type StoredJudgment,
} from "./support/pairedRuns";

const ROWS = 700;
const PAGE = 50;
const brief = (flips: Flip[]) =>
  flips.map((f) => ({ rowNumber: f.rowNumber, metric: f.metric, regression: f.regression }));
const FILTERS = [
  {},
  { direction: "regressions" as const },
  { direction: "improvements" as const },
  { metric: SCORED[1] },
  { metric: SCORED[0], direction: "improvements" as const },
];

describe("two runs' paired counts in slices and their flips paged by key", () => {
  let store: TempDb;
  let baseline: { runId: string; judgments: StoredJudgment[] };
  let candidate: { runId: string; judgments: StoredJudgment[] };

  beforeAll(async () => {
    store = await createTempDb();
    const datasetId = await insertDatasetRows(store.db, ROWS);
    baseline = await insertJudgedRun(store.db, datasetId, {
      seed: 1,
      yesRate: 0.7,
      finishedAt: new Date("2026-11-24T10:00:00Z"),
    });
    candidate = await insertJudgedRun(store.db, datasetId, {
      seed: 2,
      yesRate: 0.75,
      finishedAt: new Date("2026-11-24T11:00:00Z"),
    });
  }, 60_000);
  afterAll(async () => store.cleanup());

  it("counts the same in slices of any size as in one statement, and as counted by hand", async () => {
    const { paired } = expectedPairing(baseline.judgments, candidate.judgments);
    for (const sliceJudgments of [1, 3, 97, 1000, 1_000_000])
      expect(await getPairedCounts(store.db, baseline.runId, candidate.runId, { sliceJudgments })).toEqual(paired);
  });

  it("reads a run's judges and pass marks in slices as the two whole-run reads do", async () => {
    const db = store.db;
    // Two judges and two prompt versions on one metric, one unrecorded, and a second pass mark.
    await sqlOf(db).run(
      `UPDATE "JudgmentItem" SET "judgeModel" = CASE WHEN "rowNumber" % 3 = 0 THEN 'other-model' WHEN "rowNumber" % 7 = 0 THEN NULL ELSE "judgeModel" END,
         "promptVersion" = CASE WHEN "rowNumber" % 2 = 0 THEN 'v2' ELSE 'v1' END,
         "threshold" = CASE WHEN "threshold" IS NOT NULL AND "rowNumber" % 5 = 0 THEN 0.7 ELSE "threshold" END
       WHERE "runId" = ? AND "status" = 'done'`,
      [candidate.runId],
    );
    const whole = await wholeRunProvenance(db, candidate.runId);
    expect(whole.judges.length).toBeGreaterThan(PAIRED_METRICS.length * 4);
    expect(whole.passMarks.length).toBe(SCORED.length * 2);
    for (const sliceJudgments of [1, 61, 1_000_000])
      expect(await getRunProvenance(db, candidate.runId, { sliceJudgments })).toEqual(whole);
  });

  it("lists the flips in the list's order by offset, a page at a time, under every filter", async () => {
    const { flips } = expectedPairing(baseline.judgments, candidate.judgments);
    expect(flips.some((f) => f.regression) && flips.some((f) => !f.regression)).toBe(true);
    for (const filter of FILTERS) {
      const wanted = flips.filter(
        (f) =>
          (!filter.metric || f.metric === filter.metric) &&
          (!filter.direction || f.regression === (filter.direction === "regressions")),
      );
      expect(wanted.length).toBeGreaterThan(PAGE);
      const read: Flip[] = [];
      for (let offset = 0; offset < wanted.length + PAGE; offset += PAGE) {
        const page = await listFlips(store.db, baseline.runId, candidate.runId, { ...filter, offset, limit: PAGE });
        expect(page.total).toBe(wanted.length);
        read.push(...page.items);
      }
      expect(brief(read)).toEqual(wanted);
    }
  });

  it("pages by key, each page after the previous page's last flip, exactly as by offset", async () => {
    for (const filter of FILTERS) {
      let after: ReturnType<typeof cursorOf> | undefined;
      for (let offset = 0; ; offset += PAGE) {
        const byOffset = await listFlips(store.db, baseline.runId, candidate.runId, { ...filter, offset, limit: PAGE });
        const byKey = await listFlips(store.db, baseline.runId, candidate.runId, {
          ...filter,
          offset: 0,
          after,
          limit: PAGE,
        });
        expect(byKey).toEqual(byOffset);
        if (byKey.items.length < PAGE) break;
        after = cursorOf(byKey.items[PAGE - 1]);
      }
    }
  });

  it("keeps a completed pair's pages, continues from bookmarks, and answers as a fresh read does", async () => {
    clearFlipPages();
    const [a, b] = [(await getRun(store.db, baseline.runId))!, (await getRun(store.db, candidate.runId))!];
    const before = flipPageCounts();
    const pages = [];
    for (let page = 1; page <= 4; page++) pages.push(await readFlipPage(store.db, a, b, { page, pageSize: PAGE }));
    // Page 3 again, then page 4 from a bookmark-less start: both equal a fresh read by offset.
    expect(await readFlipPage(store.db, a, b, { page: 3, pageSize: PAGE })).toEqual(pages[2]);
    expect(flipPageCounts().read - before.read).toBe(4);
    expect(flipPageCounts().fromCache - before.fromCache).toBe(1);
    for (let page = 1; page <= 4; page++)
      expect(pages[page - 1]).toEqual(
        await listFlips(store.db, a.id, b.id, { offset: (page - 1) * PAGE, limit: PAGE }),
      );
  });

  it("reads a run being re-judged afresh every time, and its new verdicts once it completes again", async () => {
    clearFlipPages();
    clearCompletedRunReads();
    const db = store.db;
    const loaded = async () => [(await getRun(db, baseline.runId))!, (await getRun(db, candidate.runId))!] as const;
    const [a, b] = await loaded();
    const old = await readFlipPage(db, a, b, { page: 2, pageSize: PAGE });
    const oldComparison = await compareRuns(db, [a.id, b.id], a.id, { waitMs: Infinity });

    expect(await resetJudgmentsForRejudge(db, candidate.runId, "errored_or_failed")).toBeGreaterThan(0);
    // Judged again while the run is pending: every failure now passes, one item at a time.
    const [, pending] = await loaded();
    expect(pending.status).toBe("pending");
    const reset = await sqlOf(db).all<{ id: string; metric: string }>(
      `SELECT "id", "metric" FROM "JudgmentItem" WHERE "runId" = ? AND "status" = 'pending' ORDER BY "rowNumber", "metric"`,
      [candidate.runId],
    );
    const judge = (item: { id: string; metric: string }) =>
      SCORED.includes(item.metric)
        ? sqlOf(db).run(`UPDATE "JudgmentItem" SET "status" = 'done', "score" = 0.99, "passed" = TRUE WHERE "id" = ?`, [
            item.id,
          ])
        : sqlOf(db).run(
            `UPDATE "JudgmentItem" SET "status" = 'done', "rating" = 'yes', "passed" = TRUE WHERE "id" = ?`,
            [item.id],
          );
    const fresh = () => listFlips(db, a.id, b.id, { offset: PAGE, limit: PAGE });
    for (const item of reset.slice(0, reset.length / 2)) await judge(item);
    const halfway = await readFlipPage(db, a, pending, { page: 2, pageSize: PAGE });
    expect(halfway).toEqual(await fresh());
    expect(halfway).not.toEqual(old);
    for (const item of reset.slice(reset.length / 2)) await judge(item);
    // Still pending: not kept, so the second half of the re-judge shows at once.
    expect(await readFlipPage(db, a, pending, { page: 2, pageSize: PAGE })).toEqual(await fresh());

    await db.run.update({ where: { id: candidate.runId }, data: { status: "completed", finishedAt: new Date() } });
    const [, rejudged] = await loaded();
    const after = await readFlipPage(db, a, rejudged, { page: 2, pageSize: PAGE });
    expect(after).toEqual(await fresh());
    // No improvement is left to find among the re-judged failures' rows: every candidate failure now passes.
    expect((await listFlips(db, a.id, b.id, { direction: "regressions", offset: 0, limit: 1 })).total).toBe(0);
    const comparison = await compareRuns(db, [a.id, b.id], a.id, { waitMs: Infinity });
    expect(comparison?.paired).not.toEqual(oldComparison?.paired);
    clearCompletedRunReads();
    expect(await compareRuns(db, [a.id, b.id], a.id, { waitMs: Infinity })).toEqual(comparison);
  });
});

/** A run's judges and pass marks as two whole-run GROUP BYs read them (what the compare page read before slices). */
async function wholeRunProvenance(db: Db, runId: string) {
  const judges = await db.judgmentItem.groupBy({
    by: ["metric", "judgeProvider", "judgeModel", "promptVersion"],
    where: { runId, status: "done" },
    _count: { _all: true },
    // An unrecorded judge or prompt first, as SQLite orders NULLs (PostgreSQL puts them last unless told).
    orderBy: [
      { metric: "asc" },
      { judgeModel: { sort: "asc", nulls: "first" } },
      { promptVersion: { sort: "asc", nulls: "first" } },
    ],
  });
  const marks = await db.judgmentItem.groupBy({
    by: ["metric", "threshold"],
    where: { runId, status: "done", threshold: { not: null } },
    orderBy: [{ metric: "asc" }, { threshold: "asc" }],
  });
  return {
    judges: judges.map((group) => ({
      metric: group.metric,
      provider: group.judgeProvider ?? "unknown",
      model: group.judgeModel ?? "unknown",
      promptVersion: group.promptVersion ?? "unknown",
      rows: group._count._all,
    })),
    passMarks: marks.flatMap((group) =>
      group.threshold === null ? [] : [{ metric: group.metric, threshold: group.threshold }],
    ),
  };
}
