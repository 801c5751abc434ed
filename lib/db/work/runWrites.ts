import { responseHashOf } from "@/lib/contract/contentHash";
import { sqlOf, type Db } from "../client";
import type { RunBudget } from "../runs/runBudget";
import {
  startWithinRunsInProgressLimit,
  type RunsInProgressLimit,
  type StartedWithinLimit,
} from "../runs/runsInProgress";
import type { BulkTable } from "../store/sqlRunner";
import { sqlFragments } from "../store/sqlFragments";
import { readStoreClock } from "../store/storeClock";
import { addWorkerSpending } from "./runSpending";
import { orderedUuid } from "../orderedUuid";

export type RunItemPlan = {
  id: string;
  rowId: string;
  /** The row's DatasetRow.rowNumber: the rows table's per-metric filters page through it. */
  rowNumber: number;
  metric: string;
  /** Which of the run's trials (1-based). */
  trial: number;
  status: "pending" | "skipped";
  skipReason: string | null;
};

/** One response to generate: a row's, for one trial. */
export type PlannedGeneration = { rowId: string; trial: number };

type NewRun = {
  id: string;
  datasetId: string;
  name: string;
  tags: string;
  judgeProvider: string;
  judgeModel: string;
  concurrency: number;
  config: string;
  generationModel: string | null;
  generationSystemPrompt: string | null;
  budget?: RunBudget;
  /** The signed-in user who started it; null while sign-in is off. */
  createdById?: string | null;
};

/**
 * Planning writes a run in pages, never in one long transaction: a 20,000-row
 * dataset with every judge made 220,000 items, built in memory (428 MB peak)
 * and written in one transaction that held the write lock, and the event loop,
 * for seconds (a lease heartbeat of another run in the same server could not
 * beat). The run is stored first as `planning`, which nothing executes, lists
 * as resumable or claims; its items follow page by page, each page one short
 * transaction; only then does it become `pending`. A planner that dies part-way
 * leaves a `planning` run whose planning lease lapses, and deleteAbandonedPlans
 * removes it: no half-planned run is ever taken for a real one.
 */
export async function insertPlanningRun(
  db: Db,
  run: NewRun,
  customJudges: {
    assessmentName: string;
    assessmentType: string;
    instructions: string;
    alignment?: unknown;
    basedOn?: string;
  }[],
  planner: { owner: string; ttlMs: number },
  limit: RunsInProgressLimit = null,
): Promise<StartedWithinLimit<void>> {
  // The planning lease by the store's clock: a worker on another machine decides by it whether the planner died.
  const now = await readStoreClock(sqlOf(db));
  const tables: BulkTable[] = [
    {
      table: "Run",
      columns: [
        "id",
        "datasetId",
        "name",
        "tags",
        "status",
        "judgeProvider",
        "judgeModel",
        "concurrency",
        "config",
        "generationModel",
        "generationSystemPrompt",
        "createdAt",
        "leaseOwner",
        "leaseExpiresAt",
        "budgetCalls",
        "budgetTokens",
        "budgetUsd",
        "createdById",
      ],
      rows: [
        [
          run.id,
          run.datasetId,
          run.name,
          run.tags,
          "planning",
          run.judgeProvider,
          run.judgeModel,
          run.concurrency,
          run.config,
          run.generationModel,
          run.generationSystemPrompt,
          now,
          planner.owner,
          new Date(now.getTime() + planner.ttlMs),
          run.budget?.calls ?? null,
          run.budget?.tokens ?? null,
          run.budget?.usd ?? null,
          run.createdById ?? null,
        ],
      ],
    },
    {
      table: "CustomJudge",
      columns: ["id", "runId", "assessmentName", "assessmentType", "instructions", "alignment", "basedOn"],
      rows: customJudges.map((judge) => [
        orderedUuid(),
        run.id,
        judge.assessmentName,
        judge.assessmentType,
        judge.instructions,
        judge.alignment === undefined ? null : JSON.stringify(judge.alignment),
        judge.basedOn ?? null,
      ]),
    },
  ];
  // The run counts as in progress from this row on: with a limit, the row is written only within it.
  return startWithinRunsInProgressLimit(db, limit, (tx) => tx.bulkInsert(tables));
}

/** One page of a run's plan (its work items and generation items) in one short transaction; renews the planning lease. */
export async function insertPlanPage(
  db: Db,
  runId: string,
  page: { items: RunItemPlan[]; generations: PlannedGeneration[]; generationModel: string | null },
  planner: { owner: string; ttlMs: number },
): Promise<void> {
  const now = new Date();
  const sql = sqlOf(db);
  await sql.bulkInsert([
    {
      table: "JudgmentItem",
      columns: ["id", "runId", "rowId", "rowNumber", "metric", "trial", "status", "skipReason", "createdAt"],
      rows: page.items.map((item) => [
        item.id,
        runId,
        item.rowId,
        item.rowNumber,
        item.metric,
        item.trial,
        item.status,
        item.skipReason,
        now,
      ]),
    },
    {
      table: "Generation",
      columns: ["id", "runId", "rowId", "trial", "status", "model"],
      rows: page.generations.map(({ rowId, trial }) => [
        orderedUuid(),
        runId,
        rowId,
        trial,
        "pending",
        page.generationModel ?? "",
      ]),
    },
  ]);
  await sql.run(
    `UPDATE "Run" SET "leaseExpiresAt" = ${sqlFragments(sql).storeTime(planner.ttlMs)} WHERE "id" = ? AND "status" = 'planning' AND "leaseOwner" = ?`,
    [runId, planner.owner],
  );
}

/** The plan is complete: the run becomes pending (runnable). */
export async function finishPlanning(db: Db, runId: string, owner: string): Promise<void> {
  const changes = await sqlOf(db).run(
    `UPDATE "Run" SET "status" = 'pending', "leaseOwner" = NULL, "leaseExpiresAt" = NULL WHERE "id" = ? AND "status" = 'planning' AND "leaseOwner" = ?`,
    [runId, owner],
  );
  if (changes !== 1) throw new Error(`run ${runId} is no longer being planned by this process`);
}

/** Deletes runs whose planner died part-way (planning lease lapsed); their items go with them (cascade). */
export async function deleteAbandonedPlans(db: Db): Promise<number> {
  const now = await readStoreClock(sqlOf(db));
  const { count } = await db.run.deleteMany({ where: { status: "planning", leaseExpiresAt: { lt: now } } });
  return count;
}

/**
 * Who writes a result: the worker that claimed the item (claims.ts), and
 * the calls it had reserved for it against the run's call budget (freed as
 * the result's real spending is added). Without a claimant, only an item
 * still pending can be written (tests and tools that write results directly).
 */
export type Claimant = { workerId: string; reservedCalls?: number };

/** The condition under which an item's result may be written (see Claimant). */
function writableBy(claimant: Claimant | null): string {
  return claimant ? `"status" = 'running' AND "claimedBy" = ?` : `"status" = 'pending'`;
}

export type SavedGeneration = {
  response: string | null;
  errorMessage: string | null;
  inputTokenCount: number | null;
  outputTokenCount: number | null;
  latencySeconds: number | null;
  /** HTTP attempts the call made (retries included) and its cost, for the run's budget. */
  attempts: number;
  costUsd: number | null;
  templateVersion: string;
  templateHash: string;
  promptHash: string;
};

/** Writes one generated response and what it spent, under the same rule as saveJudgment. */
export async function saveGeneration(
  db: Db,
  generation: { id: string; runId: string },
  result: SavedGeneration,
  claimant: Claimant | null = null,
): Promise<boolean> {
  return sqlOf(db).transaction(
    async (tx) => {
      const changed = await tx.run(
        `UPDATE "Generation" SET "status" = ?, "response" = ?, "responseHash" = ?, "errorMessage" = ?, "inputTokenCount" = ?, "outputTokenCount" = ?, "latencySeconds" = ?,
        "attempts" = ?, "costUsd" = ?, "templateVersion" = ?, "templateHash" = ?, "promptHash" = ?, "finishedAt" = ?, "claimedBy" = NULL, "claimedAt" = NULL
        WHERE "id" = ? AND ${writableBy(claimant)}`,
        [
          result.errorMessage ? "error" : "done",
          result.response,
          responseHashOf(result.response),
          result.errorMessage,
          result.inputTokenCount,
          result.outputTokenCount,
          result.latencySeconds,
          result.attempts,
          result.costUsd,
          result.templateVersion,
          result.templateHash,
          result.promptHash,
          new Date(),
          generation.id,
          ...(claimant ? [claimant.workerId] : []),
        ],
      );
      if (changed === 0) return false;
      await addWorkerSpending(tx, generation.runId, claimant?.workerId ?? "direct", {
        calls: result.attempts,
        tokens: (result.inputTokenCount ?? 0) + (result.outputTokenCount ?? 0),
        usd: result.costUsd ?? 0,
        reservedCalls: claimant?.reservedCalls ?? 0,
      });
      return true;
    },
    { readCommitted: true, relaxedDurability: true },
  );
}
