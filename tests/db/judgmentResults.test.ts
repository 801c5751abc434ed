import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlOf, type Db } from "@/lib/db/client";
import { saveJudgments, type JudgmentToSave, type SavedJudgment } from "@/lib/db/work/judgmentResults";
import { readRunSpending, reserveBudgetCalls } from "@/lib/db/work/runSpending";
import { createRun } from "@/lib/engine/createRun";
import { expectTalliesExact } from "../support/keptTallies";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb, type TempDb } from "../support/tempDb";

/**
 * A worker's results written many at a time (saveJudgments), on the store under test: each judgment only if
 * the writer still holds its claim, its chunks and spending only then, and the kept tallies exact.
 */
const CHUNK_RELEVANCE = "retrieval/llm_judged/chunk_relevance";
const FAITHFULNESS = "response/llm_judged/faithfulness";

function resultFor(i: number, chunks: number): SavedJudgment {
  return {
    rating: null,
    score: i / 10,
    rationale: `rationale ${i}: it's "quoted", with a \\ backslash, {braces} and a comma,`,
    errorMessage: i === 3 ? "the judge's answer did not parse" : null,
    provider: "openai",
    model: "judge-model",
    promptVersion: "v2",
    promptHash: `hash-${i}`,
    usage: i === 2 ? null : { inputTokens: 100 + i, outputTokens: 10 + i },
    cacheHit: i === 1,
    attempts: 1 + (i % 2),
    latencyMs: 12.6 + i,
    threshold: 0.5,
    passed: i / 10 >= 0.5,
    costUsd: i === 2 ? null : 0.001 * (i + 1),
    details: { groups: [], figures: { coverage: i / 4 } },
    chunks: Array.from({ length: chunks }, (_, position) => ({
      position,
      rating: position % 2 === 0 ? ("yes" as const) : ("no" as const),
      rationale: `chunk ${position} of ${i}`,
      errorMessage: null,
    })),
  };
}

describe("a worker's results written as one batch", () => {
  let store: TempDb;
  let db: Db;
  beforeAll(async () => {
    store = await createTempDb();
    db = store.db;
  });
  afterAll(async () => store?.cleanup());

  async function claimedRun(): Promise<{ runId: string; batch: JudgmentToSave[] }> {
    const datasetId = await importRows(db, syntheticRows(4, 3));
    const runId = await createRun(
      db,
      {
        datasetId,
        metrics: [CHUNK_RELEVANCE, FAITHFULNESS],
        judge: { provider: "openai", model: "judge-model" },
        concurrency: 4,
      },
      { budget: { calls: 100, tokens: null, usd: null } },
    );
    const items = await db.judgmentItem.findMany({
      where: { runId },
      orderBy: [{ rowNumber: "asc" }, { metric: "asc" }],
      select: { id: true, rowId: true, metric: true },
    });
    expect(items).toHaveLength(8);
    // Items 0–4 are worker-a's, 5 and 6 another worker's, 7 still pending.
    const sql = sqlOf(db);
    for (const [i, item] of items.entries())
      if (i < 7)
        await sql.run(`UPDATE "JudgmentItem" SET "status" = 'running', "claimedBy" = ? WHERE "id" = ?`, [
          i < 5 ? "worker-a" : "worker-b",
          item.id,
        ]);
    expect(await reserveBudgetCalls(db, runId, "worker-a", 20)).toBe(true);
    const batch = items.map((item, i) => ({
      item,
      result: resultFor(i, item.metric === CHUNK_RELEVANCE ? 3 : 0),
      reservedCalls: 2,
    }));
    return { runId, batch };
  }

  it("writes only what the writer holds: its chunks and spending with it, each judgment once", async () => {
    const { runId, batch } = await claimedRun();
    expect(await saveJudgments(db, runId, "worker-a", batch)).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);

    const stored = await db.judgmentItem.findMany({
      where: { runId },
      orderBy: [{ rowNumber: "asc" }, { metric: "asc" }],
    });
    for (const [i, judgment] of stored.entries()) {
      if (i >= 5) {
        expect(judgment).toMatchObject({ status: i < 7 ? "running" : "pending", score: null, rationale: null });
        continue;
      }
      const result = batch[i].result;
      expect(judgment).toMatchObject({
        status: i === 3 ? "error" : "done",
        rating: null,
        score: result.score,
        threshold: 0.5,
        passed: result.passed,
        rationale: result.rationale,
        errorMessage: result.errorMessage,
        details: JSON.stringify(result.details),
        judgeProvider: "openai",
        judgeModel: "judge-model",
        promptVersion: "v2",
        promptHash: `hash-${i}`,
        cacheHit: i === 1,
        attempts: result.attempts,
        inputTokens: result.usage?.inputTokens ?? null,
        outputTokens: result.usage?.outputTokens ?? null,
        costUsd: result.costUsd,
        latencyMs: Math.round(result.latencyMs ?? 0),
        claimedBy: null,
        claimedAt: null,
      });
      expect(Math.abs((judgment.finishedAt?.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
    }

    const chunks = await db.chunkJudgment.findMany({
      where: { runId },
      orderBy: [{ judgmentId: "asc" }, { position: "asc" }],
    });
    const writtenChunkRelevance = stored.filter((j, i) => i < 5 && j.metric === CHUNK_RELEVANCE);
    expect(chunks).toHaveLength(writtenChunkRelevance.length * 3);
    for (const judgment of writtenChunkRelevance) {
      const own = chunks.filter((chunk) => chunk.judgmentId === judgment.id);
      const i = stored.indexOf(judgment);
      expect(
        own.map(({ rowId, metric, position, rating, rationale }) => ({ rowId, metric, position, rating, rationale })),
      ).toEqual(
        [0, 1, 2].map((position) => ({
          rowId: judgment.rowId,
          metric: CHUNK_RELEVANCE,
          position,
          rating: position % 2 === 0 ? "yes" : "no",
          rationale: `chunk ${position} of ${i}`,
        })),
      );
    }

    const written = batch.slice(0, 5).map(({ result }) => result);
    const spending = await readRunSpending(db, runId);
    expect(spending.calls).toBe(written.reduce((n, r) => n + r.attempts, 0));
    expect(spending.tokens).toBe(
      written.reduce((n, r) => n + (r.usage ? r.usage.inputTokens + r.usage.outputTokens : 0), 0),
    );
    expect(spending.usd).toBeCloseTo(
      written.reduce((n, r) => n + (r.costUsd ?? 0), 0),
      12,
    );
    // 20 calls were reserved; the five written results freed 2 each.
    const held = await sqlOf(db).get<{ n: number }>(
      `SELECT SUM("heldCalls") AS "n" FROM "RunWorkerSpending" WHERE "runId" = ? AND "workerId" = 'worker-a'`,
      [runId],
    );
    expect(Number(held?.n)).toBe(10);
    await expectTalliesExact(db, runId);

    // The same results again are nobody's to write: nothing changes.
    expect(await saveJudgments(db, runId, "worker-a", batch)).toEqual(Array(8).fill(false));
    expect(await db.chunkJudgment.count({ where: { runId } })).toBe(chunks.length);
    expect(await readRunSpending(db, runId)).toEqual(spending);
  });

  it("keeps the tallies exact for a batch of a few, whose tallies go by each judgment's own trigger", async () => {
    const { runId, batch } = await claimedRun();
    // Out of row order, as lanes finish: each outcome still answers its own entry.
    const few = [batch[4], batch[0], batch[6], batch[2]];
    expect(await saveJudgments(db, runId, "worker-a", few)).toEqual([true, true, false, true]);
    expect(
      (await db.judgmentItem.findMany({ where: { runId, status: { in: ["done", "error"] } }, select: { id: true } }))
        .map((j) => j.id)
        .sort(),
    ).toEqual([batch[0], batch[2], batch[4]].map((j) => j.item.id).sort());
    await expectTalliesExact(db, runId);
  });

  it("writes only judgments still pending when no worker claims them (tests and tools writing results directly)", async () => {
    const { runId, batch } = await claimedRun();
    expect(await saveJudgments(db, runId, null, batch)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
    expect(await db.chunkJudgment.count({ where: { runId } })).toBe(batch[7].item.metric === CHUNK_RELEVANCE ? 3 : 0);
    await expectTalliesExact(db, runId);
  });
});
