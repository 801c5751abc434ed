import type { Db } from "@/lib/db/client";
import { createJudgeCache } from "@/lib/db/judgeCache/judgeCacheRepository";
import { createRun } from "@/lib/engine/createRun";
import { createLlmPairwiseJudge } from "@/lib/judges/pairwise/llmPairwiseJudge";
import { createLimiter } from "@/lib/llm/concurrencyLimiter";
import { createOpenAiLlmClient } from "@/lib/llm/openaiClient";
import { fakeLlmConfig, importRows } from "./engineKit";
import { markedRows } from "./fakePairwiseResponders";

/** A baseline and a candidate run over two such uploads, judged offline (pairwise needs only their responses). */
export async function twoMarkedRuns(db: Db, rows: number, marker = "BETTER ") {
  const judge = { provider: "heuristic" as const, model: "offline" };
  const metrics = ["response/llm_judged/safety"];
  const baseline = await createRun(db, { datasetId: await importRows(db, markedRows(rows, "")), metrics, judge });
  const candidate = await createRun(db, { datasetId: await importRows(db, markedRows(rows, marker)), metrics, judge });
  return { baseline, candidate };
}

/** A pairwise judge of the fake server at `url`, `concurrency` calls at a time, caching in the store. */
export function fakePairwiseJudge(db: Db, url: string, concurrency: number, model = "judge-model") {
  const llm = createOpenAiLlmClient({ config: fakeLlmConfig(url), limiter: createLimiter(concurrency) });
  return createLlmPairwiseJudge({ llm, cache: createJudgeCache(db), model });
}
