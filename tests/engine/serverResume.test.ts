import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { listRunEvents } from "@/lib/db/runs/runEvents";
import { claimRunLease } from "@/lib/db/runs/runLease";
import { createRun } from "@/lib/engine/createRun";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
import { executeRunInBackground, isRunActiveHere } from "@/lib/server/runScheduler";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the web server resumes a run whose runner died", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  const logged: string[] = [];
  const originalLog = console.log;

  beforeAll(async () => {
    let url: string;
    ({ db, url, cleanup } = await createTempDb());
    // The scheduler opens the process-wide client on DATABASE_URL, as the server does.
    process.env.DATABASE_URL = url;
    // Collects what the server would print, and still prints it.
    console.log = (...args: unknown[]) => {
      logged.push(args.map(String).join(" "));
      originalLog(...args);
    };
  });
  afterAll(async () => {
    console.log = originalLog;
    await cleanup();
  });

  it("records a resumed event with the pending count and says so in one log line", async () => {
    const datasetId = await importRows(db, syntheticRows(12, 2));
    const runId = await createRun(db, {
      datasetId,
      metrics: ["correctness", "groundedness"],
      judge: { provider: "heuristic", model: HEURISTIC_MODEL },
    });
    const pending = await db.judgmentItem.count({ where: { runId, status: "pending" } });
    // What a server killed mid-run leaves: the run "running" under a runner whose lease has lapsed.
    expect(await claimRunLease(db, runId, "web-dead0000", 1)).toBe(true);
    await sleep(20);

    executeRunInBackground(runId);
    const deadline = Date.now() + 30_000;
    while (isRunActiveHere(runId) && Date.now() < deadline) await sleep(50);

    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("completed");
    const events = await listRunEvents(db, runId);
    expect(events.map((e) => [e.kind, e.pendingJudgments])).toEqual([
      ["started", pending],
      ["resumed", pending],
      ["finished", 0],
    ]);
    expect(events[1].worker).toMatch(/^web-/);
    const lines = logged.filter((line) => line.includes("resumed run"));
    expect(lines).toEqual([`[assay] resumed run ${runId} after an interruption; ${pending} judgments were pending`]);
  }, 60_000);
});
