import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import type { SqlParams, SqlRunner } from "@/lib/db/store/sqlRunner";
import { registerStore, storeOf } from "@/lib/db/store/storeRegistry";
import { createRun } from "@/lib/engine/createRun";
import { BUILT_IN_METRICS } from "@/lib/engine/runConfig";
import { runResultsCsv, runResultsJson } from "@/lib/export/runResults";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";

/**
 * Planning a run and exporting it hold one page of the store at a time, so their memory does not grow with
 * the dataset. Measured without timing or RSS: every statement they run (raw SQL and Prisma's) is counted,
 * and none may return more rows than a bound well under the dataset's size. Reading the whole run at once
 * (a plan from every row, an export of every judgment) returns thousands.
 */
const ROWS = 2_500;
/** The most rows one statement may return: under the dataset's 2,500 rows and its 2,500 × metrics items. */
const MOST_ROWS_PER_STATEMENT = 2_000;

type Counter = { db: Db; largest: number; statements: number; reset(): void };

/** The rows a statement's result holds: a list's length, one for a single record, none for a count. */
function rowsIn(result: unknown): number {
  if (Array.isArray(result)) return result.length;
  return result && typeof result === "object" ? 1 : 0;
}

/** `db` with every statement's result counted: Prisma's model and raw calls, and lib/db's raw-SQL runner. */
function countStatements(db: Db): Counter {
  const counter: Counter = {
    db,
    largest: 0,
    statements: 0,
    reset() {
      counter.largest = 0;
      counter.statements = 0;
    },
  };
  const note = <T>(result: T): T => {
    counter.statements += 1;
    counter.largest = Math.max(counter.largest, rowsIn(result));
    return result;
  };
  const counted = (runner: SqlRunner): SqlRunner => ({
    dialect: runner.dialect,
    all: async <T>(sql: string, params?: SqlParams) => note(await runner.all<T>(sql, params)),
    get: async <T>(sql: string, params?: SqlParams) => note(await runner.get<T>(sql, params)),
    run: (sql, params) => runner.run(sql, params),
    transaction: (work, options) => runner.transaction((tx) => work(counted(tx)), options),
    bulkInsert: (tables) => runner.bulkInsert(tables),
  });
  const extended = db.$extends({
    query: {
      async $allOperations({ args, query }) {
        return note(await query(args));
      },
    },
  }) as unknown as Db;
  const store = storeOf(db);
  registerStore(extended, { ...store, runner: counted(store.runner) });
  counter.db = extended;
  return counter;
}

async function drain(pieces: AsyncGenerator<string>): Promise<number> {
  let chars = 0;
  for await (const piece of pieces) chars += piece.length;
  return chars;
}

describe("planning and export read the store in bounded pages", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let counter: Counter;
  let runId: string;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    const datasetId = await importRows(db, syntheticRows(ROWS, 1));
    counter = countStatements(db);
    runId = await createRun(counter.db, {
      datasetId,
      metrics: BUILT_IN_METRICS,
      judge: { provider: "heuristic", model: HEURISTIC_MODEL },
      concurrency: 1,
    });
  }, 180_000);
  afterAll(async () => {
    await cleanup();
  });

  it("planning a run reads its dataset a page at a time", async () => {
    expect(await db.judgmentItem.count({ where: { runId } })).toBe(ROWS * BUILT_IN_METRICS.length);
    // Several pages were read, none of them the whole dataset.
    expect(counter.statements).toBeGreaterThan(ROWS / MOST_ROWS_PER_STATEMENT);
    expect(counter.largest).toBeGreaterThan(0);
    expect(counter.largest).toBeLessThanOrEqual(MOST_ROWS_PER_STATEMENT);
  });

  it.each([
    ["CSV", runResultsCsv],
    ["JSON", runResultsJson],
  ])("the %s export reads the run a page at a time", async (_format, exportOf) => {
    counter.reset();
    expect(await drain(exportOf(counter.db, runId))).toBeGreaterThan(ROWS * 100);
    expect(counter.largest).toBeGreaterThan(0);
    expect(counter.largest).toBeLessThanOrEqual(MOST_ROWS_PER_STATEMENT);
  });
});
