import { createHash } from "node:crypto";
import {
  OVERALL_CRITERION,
  pairwiseCallCount,
  type PairwiseCriterion,
  type PairwiseOrders,
  type ShownOrder,
} from "@/lib/contract/pairwise";
import type { Db } from "@/lib/db/client";
import {
  createPairwiseComparison,
  discardAbandonedPairwisePlans,
  failPairwiseComparison,
  finishPairwisePlan,
  getPairwiseComparison,
  renewPairwisePlanning,
  type StoredPairwiseComparison,
} from "@/lib/db/pairwise/pairwiseComparisons";
import { insertPlannedVerdicts, listPairedRows, type PlannedVerdict } from "@/lib/db/pairwise/pairwisePlan";
import { hasOutstandingGenerations } from "@/lib/db/runs/generationQueries";
import { NO_BUDGET, type RunBudget } from "@/lib/db/runs/runBudget";
import { getRun } from "@/lib/db/runs/runQueries";
import { getRowPairingCounts } from "@/lib/db/judgments/rowPairing";

/** Why a pairwise comparison cannot start, in words for the person who asked. */
export class PairwiseRefused extends Error {}

export type PairwiseRequest = {
  baselineRunId: string;
  candidateRunId: string;
  /** The built-in criterion and custom ones; the built-in one alone when empty. */
  criteria?: PairwiseCriterion[];
  orders?: PairwiseOrders;
  /** Draws each row's order in one-order mode; stored with the comparison, so the same seed gives the same orders. */
  seed?: string;
  judgeProvider: string;
  judgeModel: string;
  concurrency: number;
  /** Its own budget, as a run's (none by default): judging stops once it is reached. */
  budget?: RunBudget;
  createdById?: string | null;
};

/** Rows planned per page: each page one write, with a heartbeat between, so a large plan never holds the store. */
const PLAN_PAGE = 2000;

/** What a comparison would cost before anything is spent: its pairs, and its calls (one per pair, criterion and order). */
export async function estimatePairwise(
  db: Db,
  request: Pick<PairwiseRequest, "baselineRunId" | "candidateRunId" | "criteria" | "orders">,
): Promise<{ pairs: number; calls: number }> {
  const [baseline, candidate] = await Promise.all([
    getRun(db, request.baselineRunId),
    getRun(db, request.candidateRunId),
  ]);
  if (!baseline || !candidate) throw new PairwiseRefused("one of the two runs no longer exists");
  const pairs =
    baseline.datasetId === candidate.datasetId
      ? baseline.dataset.rowCount
      : (await getRowPairingCounts(db, baseline.datasetId, candidate.datasetId)).paired;
  const criteria = criteriaOf(request.criteria).length;
  return { pairs, calls: pairwiseCallCount(pairs, criteria, request.orders ?? "both") };
}

/** The criteria judged: the built-in one when none is given; each name once. */
export function criteriaOf(criteria: PairwiseCriterion[] | undefined): PairwiseCriterion[] {
  const list = criteria && criteria.length > 0 ? criteria : [{ name: OVERALL_CRITERION }];
  const names = new Set<string>();
  for (const criterion of list) {
    if (names.has(criterion.name)) throw new PairwiseRefused(`the criterion "${criterion.name}" is named twice`);
    if (criterion.name === OVERALL_CRITERION && criterion.instructions)
      throw new PairwiseRefused(`"${OVERALL_CRITERION}" is the built-in criterion: name a custom one otherwise`);
    if (criterion.name !== OVERALL_CRITERION && !criterion.instructions)
      throw new PairwiseRefused(`the custom criterion "${criterion.name}" needs instructions`);
    names.add(criterion.name);
  }
  return list;
}

/** One-order mode's order for a row: a fair coin drawn from the comparison's seed and the row, reproducibly. */
export function drawnOrder(seed: string, baselineRowId: string, criterion: string): ShownOrder {
  const byte = createHash("sha256").update(`${seed}\u0000${criterion}\u0000${baselineRowId}`).digest()[0];
  return byte % 2 === 0 ? "ab" : "ba";
}

/**
 * Checks that two runs can be compared pair by pair, stores the comparison and plans every verdict (pending),
 * page by page under a heartbeat, then marks it ready to judge. Throws PairwiseRefused with the reason when it
 * cannot start: a run missing, the same run twice, no paired row, responses still being generated.
 */
export async function startPairwise(db: Db, request: PairwiseRequest): Promise<StoredPairwiseComparison> {
  if (request.baselineRunId === request.candidateRunId)
    throw new PairwiseRefused("a pairwise comparison needs two different runs");
  const criteria = criteriaOf(request.criteria);
  const orders = request.orders ?? "both";
  const [baseline, candidate] = await Promise.all([
    getRun(db, request.baselineRunId),
    getRun(db, request.candidateRunId),
  ]);
  if (!baseline || !candidate) throw new PairwiseRefused("one of the two runs no longer exists");
  for (const run of [baseline, candidate])
    if (run.generationModel && (await hasOutstandingGenerations(db, run.id)))
      throw new PairwiseRefused(`the run "${run.name}" is still generating its responses: compare once it has`);
  const { pairs } = await estimatePairwise(db, { ...request, criteria });
  if (pairs === 0)
    throw new PairwiseRefused(
      "the two runs have no row in common: they must judge the same dataset, or two uploads whose rows share request_id and request",
    );
  await discardAbandonedPairwisePlans(db);
  const seed = request.seed ?? createHash("sha256").update(`${Date.now()}${Math.random()}`).digest("hex").slice(0, 16);
  const id = await createPairwiseComparison(db, {
    baselineRunId: baseline.id,
    candidateRunId: candidate.id,
    criteria,
    orders,
    seed,
    judgeProvider: request.judgeProvider,
    judgeModel: request.judgeModel,
    concurrency: request.concurrency,
    budget: request.budget ?? NO_BUDGET,
    createdById: request.createdById ?? null,
  });
  try {
    let total = 0;
    let after = -1;
    for (;;) {
      const rows = await listPairedRows(db, baseline.id, candidate.id, after, PLAN_PAGE);
      if (rows.length === 0) break;
      const planned: PlannedVerdict[] = rows.flatMap((row) =>
        criteria.flatMap((criterion) =>
          (orders === "both" ? (["ab", "ba"] as const) : [drawnOrder(seed, row.baselineRowId, criterion.name)]).map(
            (shownOrder) => ({ ...row, criterion: criterion.name, shownOrder }),
          ),
        ),
      );
      await insertPlannedVerdicts(db, id, planned);
      await renewPairwisePlanning(db, id);
      total += planned.length;
      after = rows[rows.length - 1].rowNumber;
    }
    await finishPairwisePlan(db, id, total);
  } catch (error) {
    await failPairwiseComparison(db, id, "planning the pairs failed; start the comparison again").catch(
      () => undefined,
    );
    throw error;
  }
  const stored = await getPairwiseComparison(db, id);
  if (!stored) throw new PairwiseRefused("the comparison was deleted while it was being planned");
  return stored;
}
