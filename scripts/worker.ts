// `npm run worker`: a process that judges work from the shared store, on any
// machine that reaches the database (DATABASE_URL) and the LLM endpoint
// (OPENAI_API_KEY / OPENAI_BASE_URL). Run as many as wanted; they share every
// run's work, its budget and the endpoint's in-flight limit through the store.
// Stops cleanly on SIGINT/SIGTERM: what it holds goes back to the pool at once.
import { closeDb, createDb } from "../lib/db/client";
import { describeDatabaseUrl, resolveDatabaseUrl } from "../lib/db/databaseUrl";
import { applyPendingMigrations } from "../lib/db/migrations/applyMigrations";
import { readSpendingLimits } from "../lib/config/spendingLimits";
import { startWorkerLoop } from "../lib/engine/worker/workerLoop";
import { workerPresence } from "../lib/engine/worker/workerPresence";
import { describeLlmConfig, readLlmConfig } from "../lib/llm/llmConfig";
import { useLowMemoryRuntime } from "../lib/runtime/lowMemoryRuntime";

function pollMs(): number {
  const value = Number(process.env.ASSAY_WORKER_POLL_MS);
  return Number.isFinite(value) && value >= 100 ? value : 2_000;
}

async function main(): Promise<void> {
  // Before the migrations and the database client compile their WebAssembly.
  // Not collecting eagerly: a worker is CPU-bound at a high in-flight limit, and eager collection cost one
  // worker at 64 calls in flight about a tenth of its throughput in bench:scale (0.76–0.77 of the ideal
  // instead of 0.83–0.90 on a 2-core machine) to save about 100 MB.
  useLowMemoryRuntime();
  const url = resolveDatabaseUrl();
  await applyPendingMigrations(url);
  const db = createDb(url);
  const presence = await workerPresence(db, "worker");
  const llm = readLlmConfig();
  console.log(
    `[assay worker] ${presence.id} on ${describeDatabaseUrl(url)}; judges with ${llm ? describeLlmConfig(llm) : "the offline heuristic judge only (no OPENAI_API_KEY or OPENAI_BASE_URL)"}`,
  );
  const loop = startWorkerLoop({
    db,
    kind: "worker",
    pollMs: pollMs(),
    maxRunUsd: readSpendingLimits().maxRunUsd,
    log: (message) => console.log(`[assay worker] ${message}`),
    onRunError: (runId, error) =>
      console.error(
        `[assay worker] ${runId}: ${(error instanceof Error ? error.message : String(error)).split("\n")[0]}`,
      ),
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[assay worker] ${signal}: stopping; the runs under way here go back to the pool`);
    await loop.stop();
    await closeDb(db);
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  // Keeps the process alive between sweeps (the loop's timer does not).
  setInterval(() => {}, 1 << 30);
}

main().catch((error: unknown) => {
  console.error(
    `[assay worker] could not start: ${(error instanceof Error ? error.message : String(error)).split("\n")[0]}`,
  );
  process.exit(1);
});
