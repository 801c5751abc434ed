import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDirectConnection } from "@/lib/db/store/directSqlite";
import { createDb, type Db } from "@/lib/db/client";
import { applyPendingMigrations } from "@/lib/db/migrations/applyMigrations";

/** A real SQLite file in a temp folder with every migration applied: what repository tests run against. */
export async function createTempDb(): Promise<{ db: Db; url: string; cleanup: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-db-"));
  const url = `file:${path.join(dir, "test.db")}`;
  await applyPendingMigrations(url);
  const db = createDb(url);
  return {
    db,
    url,
    cleanup: async () => {
      await db.$disconnect();
      closeDirectConnection(url);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
