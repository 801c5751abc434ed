// Runs before the server starts (npm start / npm run dev): applies pending
// migrations, clears uploads a killed server left half-way, and on a brand-new
// database (its tables made by this start or by `npm run db:deploy`) loads the
// sample datasets once, so a newcomer has something to open.
import path from "node:path";
import { closeDb, createDb, enableWriteAheadLog } from "../lib/db/client";
import { describeDatabaseUrl, resolveDatabaseUrl } from "../lib/db/databaseUrl";
import { readSetting, writeSetting } from "../lib/db/accounts/settingsQueries";
import { hasAnyDataset } from "../lib/db/datasets/datasetQueries";
import { createDatasetSink, deleteAbandonedImports } from "../lib/db/datasets/datasetWrites";
import { applyPendingMigrations } from "../lib/db/migrations/applyMigrations";
import { ingestFile } from "../lib/ingest/ingestFile";

const SAMPLES = [
  { file: path.join("prisma", "sample", "sample-eval-set.jsonl"), name: "Northwind support assistant (sample)" },
  { file: path.join("prisma", "sample", "agent-sample.jsonl"), name: "Northwind ops agent with tools (sample)" },
];

async function main(): Promise<void> {
  const url = resolveDatabaseUrl();
  const { applied } = await applyPendingMigrations(url);
  console.log(
    applied.length > 0
      ? `[assay] database ${describeDatabaseUrl(url)}: applied ${applied.length} migration(s)`
      : `[assay] database ${describeDatabaseUrl(url)} is up to date`,
  );

  const db = createDb(url);
  try {
    await enableWriteAheadLog(db);
    // An hour's grace: a CLI upload may be streaming into the same file right now.
    const removed = await deleteAbandonedImports(db, new Date(Date.now() - 60 * 60 * 1000));
    if (removed > 0) console.log(`[assay] removed ${removed} upload(s) interrupted by a previous shutdown`);
    // Offered once: on the first start whose store has no dataset (a store db:deploy migrated is as new as one
    // this start migrated), never again once it was offered, even if every dataset is deleted later.
    const offer = !(await readSetting(db, "sampleOffered")) && !(await hasAnyDataset(db));
    if (offer || process.env.ASSAY_LOAD_SAMPLE === "1") {
      for (const sample of SAMPLES) {
        const result = await ingestFile(sample.file, {
          name: sample.name,
          mode: "strict",
          sink: createDatasetSink(db),
        });
        if (!result.ok)
          throw new Error(
            `the sample dataset "${sample.name}" did not import: ${result.fileError ?? result.issues.map((i) => i.message).join("; ")}`,
          );
        console.log(`[assay] loaded the sample dataset (${result.rowCount} rows): ${sample.name}`);
      }
    }
    if (!(await readSetting(db, "sampleOffered"))) await writeSetting(db, "sampleOffered", true, null);
  } finally {
    await closeDb(db);
  }
}

/** What to do about the usual failures: a busy SQLite file, a PostgreSQL that is not there or refuses the login. */
function hintFor(message: string, code: string | undefined): string {
  if (/SocketTimeout|database is locked|SQLITE_BUSY/i.test(message))
    return " The database file is busy: is another Assay server or CLI run using it? Stop it and start again.";
  if (code === "ECONNREFUSED" || code === "ENOTFOUND")
    return " Is the PostgreSQL server in DATABASE_URL running and reachable? (`npm run db:local` starts one for a try.)";
  if (code === "28P01" || code === "28000") return " Check the user and password in DATABASE_URL.";
  if (code === "3D000") return " Create the database first, or point DATABASE_URL at an existing one.";
  return "";
}

main().catch((error: unknown) => {
  const message = (error instanceof Error ? error.message : String(error)).split("\n")[0];
  const code = (error as { code?: unknown } | null)?.code;
  console.error(
    `[assay] could not prepare the database: ${message}.${hintFor(message, typeof code === "string" ? code : undefined)}`,
  );
  process.exit(1);
});
