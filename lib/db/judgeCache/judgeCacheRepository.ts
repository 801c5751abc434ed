import type { JudgeCache } from "@/lib/judges/judgeBackend";
import { databaseUrlOf, type Db } from "../client";
import { connectionFor, preparedStatement, sqliteTimestamp } from "../store/directSqlite";
import { retryWhileBusy } from "../store/storeRetry";

/** The judge answer cache in the JudgeCache table, on the direct connection (it sits on every judge call's path). */
export function createJudgeCache(db: Db): JudgeCache {
  const connection = connectionFor(databaseUrlOf(db));
  const select = preparedStatement(
    connection,
    `SELECT "response", "inputTokens", "outputTokens" FROM "JudgeCache" WHERE "key" = ?`,
  );
  const replace = preparedStatement(
    connection,
    `INSERT OR REPLACE INTO "JudgeCache" ("key", "model", "promptVersion", "response", "inputTokens", "outputTokens", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insert = preparedStatement(
    connection,
    `INSERT OR IGNORE INTO "JudgeCache" ("key", "model", "promptVersion", "response", "inputTokens", "outputTokens", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  return {
    async get(key) {
      const row = select.get(key) as
        { response: string; inputTokens: number | null; outputTokens: number | null } | undefined;
      return row ?? null;
    },
    async put(entry, options) {
      await retryWhileBusy(() =>
        (options?.replace ? replace : insert).run(
          entry.key,
          entry.model,
          entry.promptVersion,
          entry.response,
          entry.inputTokens,
          entry.outputTokens,
          sqliteTimestamp(new Date()),
        ),
      );
    },
  };
}
