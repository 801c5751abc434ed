import { databaseUrlOf, type Db } from "../client";
import { createPromiseCache } from "../cache/promiseCache";

/** A comparison as far as its cached reads depend on it. */
export type ComparisonState = { id: string; status: string; finishedAt: Date | null; progress: { done: number } };

/** Entries kept: a comparison's counts are a few dozen numbers; its decided pairs 100,000 ids at most a few MB. */
const cache = createPromiseCache<unknown>(64);

/**
 * Reads of a completed comparison, read once and kept: its verdicts change only when it is judged again (errors
 * retried, which reopens it and moves its finish time), so its status, finish time and count of written
 * verdicts name everything the reads depend on. A comparison still being judged is read afresh every time.
 */
export function readOfCompletedComparison<T>(
  db: Db,
  scope: string,
  comparison: ComparisonState,
  read: () => Promise<T>,
): Promise<T> {
  if (comparison.status !== "completed") return read();
  const key = [
    databaseUrlOf(db),
    scope,
    comparison.id,
    comparison.finishedAt?.toISOString() ?? "",
    comparison.progress.done,
  ].join("\u0000");
  return cache.getOrCreate(key, read) as Promise<T>;
}

/** Forgets every kept read (tests). */
export function clearCompletedComparisonReads(): void {
  cache.clear();
}
