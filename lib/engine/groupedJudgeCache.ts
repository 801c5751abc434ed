import type { Db } from "@/lib/db/client";
import { createJudgeCache, putJudgeCacheEntries, type JudgeCacheEntry } from "@/lib/db/judgeCache/judgeCacheRepository";
import type { JudgeCache } from "@/lib/contract/judgeCache";
import { isStoreUnavailable } from "@/lib/db/store/storeRetry";
import { groupedWrites } from "./groupedWrites";

/**
 * The judge cache of a run's engine: answers are read as they are asked for, and written in groups. Each call's
 * answer was its own write, and on SQLite its COMMIT (one per call) was a tenth of the engine's CPU; answers
 * that come back within GATHER_MS of each other (at most `flushAt` of them) now share a transaction. A put
 * still resolves only once its answer is stored, so a judgment is never written before its answer.
 */
export function groupedJudgeCache(db: Db, options: { flushAt?: number } = {}): JudgeCache {
  const store = createJudgeCache(db);
  const writes = groupedWrites(
    async (batch: { entry: JudgeCacheEntry; replace?: boolean }[]) => {
      await putJudgeCacheEntries(db, batch);
      return batch.map(() => true);
    },
    { maxBatch: MAX_BATCH, failsEveryEntry: isStoreUnavailable, gatherMs: GATHER_MS, flushAt: options.flushAt },
  );
  return {
    get: (key) => store.get(key),
    async put(entry, options) {
      await writes.save({ entry, replace: options?.replace });
    },
  };
}

/**
 * How long the first answer of a quiet spell waits for others: small beside a judge's second or so. The call's
 * slot is already free (the limiter is the LLM client's); only its lane waits, as for the result's write.
 */
const GATHER_MS = 40;
const MAX_BATCH = 200;
