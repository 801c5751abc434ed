import type { Db } from "@/lib/db/client";
import { createRun } from "@/lib/engine/createRun";
import { BUILT_IN_METRICS } from "@/lib/engine/runConfig";
import { importRows } from "./engineKit";
import { spawnEval, type EvalResult } from "./spawnEval";
import { syntheticRows } from "./syntheticRows";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A run of every built-in judge over `rows` × `chunks` synthetic rows, started
 * by the CLI (`--resume` of the stored run) and killed with SIGKILL once
 * `fraction` of its judgments are finished: what a crash in the middle of a
 * run leaves behind. Returns the run, what was planned, the killed process's
 * result, and the environment to resume it with.
 */
export async function killRunPartWay(
  db: Db,
  options: {
    url: string;
    serverUrl: string;
    rows: number;
    chunks: number;
    model: string;
    concurrency: number;
    fraction?: number;
  },
): Promise<{ runId: string; planned: number; killed: EvalResult; env: Record<string, string> }> {
  const datasetId = await importRows(db, syntheticRows(options.rows, options.chunks));
  const runId = await createRun(db, {
    datasetId,
    metrics: BUILT_IN_METRICS,
    judge: { provider: "openai", model: options.model },
    concurrency: options.concurrency,
  });
  const planned = await db.judgmentItem.count({ where: { runId, status: "pending" } });
  const env = { DATABASE_URL: options.url, OPENAI_BASE_URL: options.serverUrl, OPENAI_API_KEY: "sk-test-kill-0000" };

  const first = spawnEval(["--resume", runId, "--quiet"], env);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const finished = await db.judgmentItem.count({ where: { runId, status: { in: ["done", "error"] } } });
    if (finished >= planned * (options.fraction ?? 0.3)) break;
    await sleep(50);
  }
  first.child.kill("SIGKILL");
  return { runId, planned, killed: await first.done, env };
}
