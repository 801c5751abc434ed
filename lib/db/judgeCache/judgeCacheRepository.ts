import type { JudgeCache } from "@/lib/contract/judgeCache";
import { sqlOf, type Db } from "../client";

const COLUMNS = `("key", "model", "promptVersion", "response", "inputTokens", "outputTokens", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?)`;
const SELECT = `SELECT "response", "inputTokens", "outputTokens" FROM "JudgeCache" WHERE "key" = ?`;
// A second opinion replaces the cached answer; any other answer keeps the one already cached (two calls may judge one prompt at once).
const REPLACE = `INSERT INTO "JudgeCache" ${COLUMNS} ON CONFLICT ("key") DO UPDATE SET "model" = excluded."model",
  "promptVersion" = excluded."promptVersion", "response" = excluded."response", "inputTokens" = excluded."inputTokens",
  "outputTokens" = excluded."outputTokens", "createdAt" = excluded."createdAt"`;
const INSERT = `INSERT INTO "JudgeCache" ${COLUMNS} ON CONFLICT ("key") DO NOTHING`;

type CachedAnswer = { response: string; inputTokens: number | null; outputTokens: number | null };
export type JudgeCacheEntry = Parameters<JudgeCache["put"]>[0];

/** The judge answer cache in the JudgeCache table, through the store's runner (it sits on every judge call's path). */
export function createJudgeCache(db: Db): JudgeCache {
  const sql = sqlOf(db);
  return {
    async get(key) {
      return (await sql.get<CachedAnswer>(SELECT, [key])) ?? null;
    },
    async put(entry, options) {
      await sql.run(options?.replace ? REPLACE : INSERT, valuesOf(entry, new Date()));
    },
  };
}

/** Several answers in one transaction: a COMMIT is most of what one small write costs. */
export async function putJudgeCacheEntries(
  db: Db,
  entries: readonly { entry: JudgeCacheEntry; replace?: boolean }[],
): Promise<void> {
  if (entries.length === 0) return;
  const createdAt = new Date();
  await sqlOf(db).transaction(async (tx) => {
    for (const { entry, replace } of entries) await tx.run(replace ? REPLACE : INSERT, valuesOf(entry, createdAt));
  });
}

function valuesOf(entry: JudgeCacheEntry, createdAt: Date) {
  return [
    entry.key,
    entry.model,
    entry.promptVersion,
    entry.response,
    entry.inputTokens,
    entry.outputTokens,
    createdAt,
  ];
}
