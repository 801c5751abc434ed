import Database from "better-sqlite3";
import { z } from "zod";
import { responseHashOf } from "@/lib/contract/contentHash";
import { labelReadsResponse } from "@/lib/contract/responseReading";
import { sqliteFilePath } from "../databaseUrl";
import { readDatasetRunJudgesOn } from "../labels/labelQueries";
import { sqliteTimestamp } from "../store/directSqlite";

const BATCH = 1000;

/**
 * The Setting row that says the fill below has run to its end. Written last,
 * so a process that dies anywhere in the fill (even on a store with no
 * labels, while hashing responses) leaves it absent and the next start runs
 * the fill again; each step resumes where it stopped. The value's version
 * grows when the fill learns a new step, so stores filled by an older one
 * run it again.
 */
export const CONTENT_HASHES_SETTING = "labelContentHashes";
const CONTENT_HASHES_VERSION = 2;

/**
 * The data step of the label_content_hash migration, run after migrations are
 * applied (SQLite has no sha256, so the SQL migration cannot fill hashes):
 * 1. gives every stored response its hash;
 * 2. gives each label that migration marked `hashPending` the hash of the
 *    response it was given on. Labels carried no run before: on a row with a
 *    response, a label was given on the dataset's (the rows table showed the
 *    dataset's labels on every run); on a row without one (a requests-only
 *    dataset) it can only have been given on a generated answer, taken to be
 *    the row's generation from the generating run whose generation finished
 *    (else whose run was created) last before the label was given; none: NULL;
 * 3. clears the hash of every whole-row label whose metric does not read the
 *    response (labelReadsResponse), which counts on every run.
 * Idempotent: a second call finds nothing to change. Returns how many of each it changed.
 */
export function fillContentHashes(databaseUrl: string): {
  rows: number;
  generations: number;
  labels: number;
  unhashed: number;
} {
  const connection = new Database(sqliteFilePath(databaseUrl));
  try {
    connection.pragma("busy_timeout = 5000");
    const rows = hashResponses(connection, "DatasetRow");
    const generations = hashResponses(connection, "Generation");
    const labels = connection.prepare(FILL_PENDING_LABELS).run().changes;
    const unhashed = clearHashesOfResponseFreeLabels(connection);
    if (labels + unhashed > 0) connection.prepare(SYNC_PERSON_LABEL_HASHES).run();
    connection
      .prepare(
        `INSERT INTO "Setting" ("key", "value", "updatedAt") VALUES (?, ?, ?)
         ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value", "updatedAt" = excluded."updatedAt"`,
      )
      .run(CONTENT_HASHES_SETTING, JSON.stringify({ version: CONTENT_HASHES_VERSION }), sqliteTimestamp(new Date()));
    return { rows, generations, labels, unhashed };
  } finally {
    connection.close();
  }
}

/** Whether the fill has run to its end on this store (one primary-key read: what every start checks). */
export function contentHashesFilled(connection: Database.Database): boolean {
  const row = connection.prepare(`SELECT "value" FROM "Setting" WHERE "key" = ?`).get(CONTENT_HASHES_SETTING) as
    { value: string } | undefined;
  if (!row) return false;
  const marker = fillMarkerSchema.safeParse(parseJson(row.value));
  return marker.success && marker.data.version === CONTENT_HASHES_VERSION;
}

const fillMarkerSchema = z.object({ version: z.number() });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** When a generation became visible to a person: when it finished, else when its run was created. */
const GENERATED_AT = `julianday(COALESCE(g."finishedAt", run."createdAt"))`;
const FILL_PENDING_LABELS = `UPDATE "HumanLabel" SET
    "responseHash" = CASE WHEN "chunkPosition" < 0 THEN COALESCE(
      (SELECT r."responseHash" FROM "DatasetRow" r WHERE r."id" = "HumanLabel"."rowId"),
      (SELECT g."responseHash" FROM "Generation" g JOIN "Run" run ON run."id" = g."runId"
        WHERE g."rowId" = "HumanLabel"."rowId" AND run."generationModel" IS NOT NULL AND g."responseHash" IS NOT NULL
          AND ${GENERATED_AT} <= julianday("HumanLabel"."labelledAt")
        ORDER BY ${GENERATED_AT} DESC LIMIT 1)) END,
    "hashPending" = false
  WHERE "hashPending" = true`;

/**
 * Labels from before several people could label a key were copied one to one into PersonLabel by the
 * multi_annotator migration, before this step filled their hashes: each takes its gold label's hash.
 */
const SYNC_PERSON_LABEL_HASHES = `UPDATE "PersonLabel" SET "responseHash" = (SELECT h."responseHash" FROM "HumanLabel" h
    WHERE h."rowId" = "PersonLabel"."rowId" AND h."metric" = "PersonLabel"."metric" AND h."chunkPosition" = "PersonLabel"."chunkPosition")
  WHERE EXISTS (SELECT 1 FROM "HumanLabel" h WHERE h."rowId" = "PersonLabel"."rowId" AND h."metric" = "PersonLabel"."metric"
    AND h."chunkPosition" = "PersonLabel"."chunkPosition" AND h."gold" = 'single'
    AND COALESCE(h."labelledBy", '') = "PersonLabel"."labeller"
    AND h."responseHash" IS NOT "PersonLabel"."responseHash")`;

/** Metrics that do not read the response take no hash, decided per dataset (a run's own judges are the dataset's). */
function clearHashesOfResponseFreeLabels(connection: Database.Database): number {
  const hashed = connection
    .prepare(
      `SELECT DISTINCT "datasetId", "metric" FROM "HumanLabel" WHERE "chunkPosition" < 0 AND "responseHash" IS NOT NULL`,
    )
    .all() as { datasetId: string; metric: string }[];
  const clear = connection.prepare(
    `UPDATE "HumanLabel" SET "responseHash" = NULL WHERE "datasetId" = ? AND "metric" = ? AND "responseHash" IS NOT NULL`,
  );
  const judgesOf = new Map<string, ReturnType<typeof readDatasetRunJudgesOn>>();
  let cleared = 0;
  for (const { datasetId, metric } of hashed) {
    const judges = judgesOf.get(datasetId) ?? readDatasetRunJudgesOn(connection, datasetId);
    judgesOf.set(datasetId, judges);
    if (!labelReadsResponse(metric, -1, judges)) cleared += clear.run(datasetId, metric).changes;
  }
  return cleared;
}

/**
 * Hashes a table's responses that have none yet, a batch per transaction so a
 * large store is never locked for long, walking the primary key from where
 * the last batch stopped (each batch reads only its own rows, not every row
 * filled before it).
 */
function hashResponses(connection: Database.Database, table: "DatasetRow" | "Generation"): number {
  const pending = connection.prepare(
    `SELECT "id", "response" FROM "${table}"
     WHERE "id" > ? AND "response" IS NOT NULL AND "responseHash" IS NULL ORDER BY "id" LIMIT ${BATCH}`,
  );
  const update = connection.prepare(`UPDATE "${table}" SET "responseHash" = ? WHERE "id" = ?`);
  const batch = connection.transaction((items: { id: string; response: string }[]) => {
    for (const { id, response } of items) update.run(responseHashOf(response), id);
  });
  let filled = 0;
  let after = "";
  for (;;) {
    const items = pending.all(after) as { id: string; response: string }[];
    if (items.length === 0) return filled;
    batch(items);
    filled += items.length;
    after = items[items.length - 1].id;
  }
}
