import type { Db } from "@/lib/db/client";
import { getRunAgreement, type JudgeAgreement } from "@/lib/db/labels/agreementQueries";
import { readLabelsVersion } from "@/lib/db/labels/peopleLabelQueries";
import type { PeopleReport } from "./peopleAgreementReport";
import { getRunPeopleAgreement } from "./runPeopleAgreement";

/**
 * A run's agreement figures, kept in this process's memory until they could change: the dataset's labels
 * version (moved in the same transaction as every label change, lib/db/labels/goldLabels.ts) and the run's
 * status and finish time are the stamp. At 100,000 rows labelled by three people the figures take a second
 * of GROUP BYs; a finished run's page, the API and compare then read them in one primary-key read. A run
 * still judging is computed afresh on every request. Bounded: the least recently used are dropped.
 */
const MAX_ENTRIES = 64;
const entries = new Map<string, { stamp: string; value: Promise<unknown> }>();

export async function cached<T>(key: string, stamp: string | null, compute: () => Promise<T>): Promise<T> {
  if (stamp === null) return compute();
  const hit = entries.get(key);
  if (hit && hit.stamp === stamp) {
    entries.delete(key);
    entries.set(key, hit);
    return hit.value as Promise<T>;
  }
  const value = compute();
  const entry = { stamp, value };
  entries.set(key, entry);
  // A failed computation is not kept: the next request tries again.
  void value.catch(() => {
    if (entries.get(key) === entry) entries.delete(key);
  });
  while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
  return value;
}

type RunStamped = { id: string; datasetId: string; status: string; finishedAt: Date | string | null };

/** The stamp of a run's figures, or null while it is judging (its verdicts still change). */
export async function runAgreementStamp(db: Db, run: RunStamped): Promise<string | null> {
  if (run.status === "pending" || run.status === "running") return null;
  const finished = run.finishedAt instanceof Date ? run.finishedAt.toISOString() : (run.finishedAt ?? "");
  return `${await readLabelsVersion(db, run.datasetId)}|${run.status}|${finished}`;
}

/** The judge's agreement with the gold labels and the people's agreement, per judge, for a run. */
export async function getCachedRunAgreement(
  db: Db,
  run: RunStamped,
  options: { epsilon?: number } = {},
): Promise<{ judges: JudgeAgreement[]; people: PeopleReport[] }> {
  const stamp = await runAgreementStamp(db, run);
  return cached(`run:${run.id}:${options.epsilon ?? ""}`, stamp, async () => {
    const ref = { id: run.id, datasetId: run.datasetId };
    const judges = await getRunAgreement(db, ref);
    return { judges, people: await getRunPeopleAgreement(db, ref, judges, options) };
  });
}
