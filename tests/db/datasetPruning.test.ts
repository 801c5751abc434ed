// Old CI datasets pruned by tag and age: only datasets whose every run carries the tag, uploaded long enough
// ago; the one holding the newest completed run with the tag (a gate's latest: baseline) and one with a run in
// progress are kept, each with why. Runs on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { pruneTaggedDatasets } from "@/lib/db/datasets/datasetPruning";
import { createRun } from "@/lib/engine/createRun";
import { importRows } from "../support/engineKit";
import { createTempDb } from "../support/tempDb";

const DAY = 86_400_000;
const judge = { provider: "heuristic" as const, model: "heuristic" };

describe("pruning old tagged datasets", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  const ids: Record<string, string> = {};

  /** A dataset uploaded `daysAgo` days ago with one run per entry of `runs` (its tags and final status). */
  async function dataset(name: string, daysAgo: number, runs: { tags: string[]; status: string }[]) {
    const datasetId = await importRows(db, [{ request_id: `${name}-1`, request: "q", response: "a" }]);
    await db.dataset.update({
      where: { id: datasetId },
      data: { name, createdAt: new Date(Date.now() - daysAgo * DAY) },
    });
    for (const run of runs) {
      const runId = await createRun(db, { datasetId, metrics: ["safety"], judge, tags: run.tags });
      await db.run.update({ where: { id: runId }, data: { status: run.status } });
    }
    ids[name] = datasetId;
  }

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    await dataset("old-ci", 30, [{ tags: ["ci", "branch=main"], status: "completed" }]);
    await dataset("old-ci-failed", 20, [{ tags: ["ci"], status: "failed" }]);
    await dataset("old-mixed", 30, [
      { tags: ["ci"], status: "completed" },
      { tags: ["manual"], status: "completed" },
    ]);
    await dataset("recent-ci", 2, [{ tags: ["ci"], status: "completed" }]);
    await dataset("old-ci-running", 30, [{ tags: ["ci"], status: "running" }]);
    await dataset("old-no-runs", 30, []);
    // Created last: its run is the newest completed run tagged ci.
    await dataset("old-ci-baseline", 15, [{ tags: ["ci"], status: "completed" }]);
  });
  afterAll(async () => cleanup());

  it("lists on a dry run what it would delete and what it keeps, deleting nothing", async () => {
    const result = await pruneTaggedDatasets(db, { tag: "ci", olderThanDays: 7, dryRun: true });
    expect(result.deleted.map((d) => d.name)).toEqual(["old-ci", "old-ci-failed"]);
    expect(result.kept.map((d) => [d.name, d.reason])).toEqual([
      ["old-ci-running", "a run on it is in progress"],
      ["old-ci-baseline", "it holds the newest completed run tagged ci (the latest: baseline)"],
    ]);
    expect(await db.dataset.count({ where: { id: ids["old-ci"] } })).toBe(1);
  });

  it("deletes the old datasets whose every run carries the tag, with their runs, and nothing else", async () => {
    const runsBefore = await db.run.count();
    const result = await pruneTaggedDatasets(db, { tag: "ci", olderThanDays: 7, dryRun: false });
    expect(result.deleted.map((d) => d.name)).toEqual(["old-ci", "old-ci-failed"]);
    expect(result.deleted.every((d) => d.runs === 1)).toBe(true);
    const left = (await db.dataset.findMany({ select: { name: true }, orderBy: { name: "asc" } })).map((d) => d.name);
    expect(left).toEqual(["old-ci-baseline", "old-ci-running", "old-mixed", "old-no-runs", "recent-ci"]);
    expect(await db.run.count()).toBe(runsBefore - 2);
    // A whole tag only: "branch=main" is a tag of old-ci's run, "branch" is not a tag of any.
    expect((await pruneTaggedDatasets(db, { tag: "branch", olderThanDays: 1, dryRun: true })).deleted).toEqual([]);
  });
});
