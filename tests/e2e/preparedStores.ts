// The store as prepare-db leaves a new one (migrated, the samples loaded), made once per run by globalSetup.ts:
// each app server's own run of prepare-db cost about 3 s of CPU (tsx, every migration, the samples' import) on
// SQLite and 8–11 s on PostgreSQL, where the wasm schema engine checks every migration again. An app server on
// SQLite starts from a copy of the file, one on PostgreSQL from a database created with this one as its
// template. The tests of prepare-db itself run it (tests/db/prepareDb.test.ts), as does every server started on
// an existing store (appServer.ts).
import fs from "node:fs";
import path from "node:path";
import { runStatement } from "@/lib/db/store/postgresAdmin";
import { createDatabaseFrom, TEMPLATE_DATABASE } from "../support/postgresGlobalSetup";
import { ROOT, run } from "./appServer";

const POSTGRES_PREPARED = "assay_e2e_prepared";

/** prepare-db on a new SQLite file in the run's folder; returns the file. */
export async function prepareSqliteStore(runDir: string): Promise<string> {
  const file = path.join(runDir, "prepared", "assay.db");
  fs.mkdirSync(path.dirname(file));
  await prepareDb(`file:${file}`);
  // Closed by prepare-db, the store is whole in its one file (SQLite folds the write-ahead log in on close).
  if (fs.existsSync(`${file}-wal`)) throw new Error(`prepare-db left ${file}-wal: the store is not whole in one file`);
  return file;
}

/**
 * prepare-db on a new database of the run's PostgreSQL, a copy of its migrated template
 * (tests/support/postgresGlobalSetup.ts) (`serverUrl` names its postgres database); returns the new one's name.
 */
export async function preparePostgresTemplate(serverUrl: string): Promise<string> {
  await runStatement(serverUrl, `DROP DATABASE IF EXISTS "${POSTGRES_PREPARED}"`);
  await createDatabaseFrom(serverUrl, POSTGRES_PREPARED, TEMPLATE_DATABASE);
  await prepareDb(serverUrl.replace(/\/postgres$/, `/${POSTGRES_PREPARED}`));
  return POSTGRES_PREPARED;
}

async function prepareDb(databaseUrl: string): Promise<void> {
  const tsx = path.join(ROOT, "node_modules", ".bin", "tsx");
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", DATABASE_URL: databaseUrl };
  const { code, output } = await run(tsx, ["scripts/prepare-db.ts"], env, 120_000);
  if (code !== 0)
    throw new Error(`prepare-db failed (exit ${code}) on ${databaseUrl.replace(/\/\/[^@]*@/, "//")}:\n${output}`);
}
