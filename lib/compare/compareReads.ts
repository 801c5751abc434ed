import { getRunAggregates } from "@/lib/db/judgments/aggregateQueries";
import { databaseUrlOf, type Db } from "@/lib/db/client";
import {
  completedRunsReadKept,
  completedStamp,
  readOfCompletedRuns,
  type RunState,
} from "@/lib/db/cache/completedRunReads";
import { getPairedSums } from "@/lib/db/judgments/compareQueries";
import { getRunProvenance } from "@/lib/db/judgments/judgeProvenanceQueries";
import type { Aggregate } from "@/lib/contract/aggregates";
import { settledBy } from "./bootstrapIntervals";

type Provenance = Awaited<ReturnType<typeof getRunProvenance>>;
type PairedSums = Awaited<ReturnType<typeof getPairedSums>>;

/**
 * A comparison's reads that grow with the runs: each run's judges and pass marks, and each candidate's paired
 * counts and score sums, read from every judgment of the runs. Two runs of 1,000,000 rows × 7 metrics took
 * 36–96 s of them before the page's first answer. On completed runs, whose reads are kept in memory
 * (completedRunReads.ts), a read not ready by `deadline` comes back undefined: the page shows it as being
 * computed and asks again, and the read, left running, answers that later request from memory. A read of a
 * run still being judged is never kept, so it is waited for: left in the background it would help nobody.
 */
async function readByDeadline<T>(
  db: Db,
  scope: string,
  runs: RunState[],
  read: () => Promise<T>,
  deadline: number,
): Promise<T | undefined> {
  if (runs.some((run) => completedStamp(run) === null)) return readOfCompletedRuns(db, scope, runs, read);
  // Only the request that starts a read waits for it, as for bootstrap intervals (settledBy).
  const startedEarlier = completedRunsReadKept(scope, runs);
  return settledBy(readOfCompletedRuns(db, scope, runs, read), deadline, startedEarlier);
}

/**
 * Each run's aggregates: kept tallies, always read whole. Read before anything raced against the deadline: on
 * SQLite completed runs' reads go one after another (completedRunReads.ts), and an aggregate queued behind a
 * judges read left running would wait for all of it (the first request for two 1,000,000-row runs took 30.6 s
 * so, on SQLite, with the judges and the paired counts already raced).
 */
export async function readAggregates(
  db: Db,
  runs: RunState[],
  metricOrder: string[],
): Promise<Map<string, Aggregate[]>> {
  const store = databaseUrlOf(db);
  const scope = `${store}|aggregates|${metricOrder.join(",")}`;
  const reads = await Promise.all(
    runs.map((run) => readOfCompletedRuns(db, scope, [run], () => getRunAggregates(db, run.id, metricOrder))),
  );
  return new Map(runs.map((run, i) => [run.id, reads[i]]));
}

/** The judges and pass marks each run's judgments record, for the runs whose read is ready by `deadline`. */
export async function readProvenance(db: Db, runs: RunState[], deadline: number): Promise<Map<string, Provenance>> {
  const scope = `${databaseUrlOf(db)}|judges+passmarks`;
  const reads = await Promise.all(
    runs.map((run) => readByDeadline(db, scope, [run], () => getRunProvenance(db, run.id), deadline)),
  );
  const provenance = new Map<string, Provenance>();
  runs.forEach((run, i) => {
    const read = reads[i];
    if (read) provenance.set(run.id, read);
  });
  return provenance;
}

/**
 * One paired GROUP BY per candidate (all its metrics at once) against the baseline, for the candidates given;
 * those not ready by `deadline` are in `pending` instead of `paired`.
 */
export async function readPairedSums(
  db: Db,
  baseline: RunState,
  candidates: RunState[],
  deadline: number,
): Promise<{ paired: Map<string, PairedSums>; pending: Set<string> }> {
  const store = databaseUrlOf(db);
  const read = (run: RunState) => () => getPairedSums(db, baseline.id, run.id);
  const sums = await Promise.all(
    candidates.map((run) => readByDeadline(db, `${store}|paired+sums`, [baseline, run], read(run), deadline)),
  );
  // In the candidates' order: the flip lists follow it.
  const paired = new Map<string, PairedSums>();
  const pending = new Set<string>();
  candidates.forEach((run, i) => {
    const ready = sums[i];
    if (ready) paired.set(run.id, ready);
    else pending.add(run.id);
  });
  return { paired, pending };
}
