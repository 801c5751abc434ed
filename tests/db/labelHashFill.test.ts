import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyPendingMigrations } from "../../lib/db/migrations/applyMigrations";

// The hash fill on stores labelled before labels recorded what they judged: labels on a dataset
// without responses get the generated answer they were given on, labels on metrics that do not
// read the response get none, and a fill that died part-way resumes at the next start.

const root = path.resolve(import.meta.dirname, "../..");
const migrationsDir = path.join(root, "prisma", "sqlite", "migrations");
const HASH_MIGRATION = fs.readdirSync(migrationsDir).find((name) => name.endsWith("_label_content_hash"))!;
const C = "response/llm_judged/correctness";
const SUFFICIENCY = "retrieval/llm_judged/context_sufficiency";
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** A store at the migration before label_content_hash, filled by `seed`, then migrated to today. */
async function oldStore(dir: string, name: string, seed: (old: Database.Database) => void): Promise<string> {
  const file = path.join(dir, `${name}.db`);
  const before = path.join(dir, `migrations-before-${name}`);
  fs.cpSync(migrationsDir, before, { recursive: true });
  // It and every later migration removed: a later one applied first would be undone by its table rebuild.
  for (const migration of fs.readdirSync(migrationsDir))
    if (/^\d{14}_/.test(migration) && migration >= HASH_MIGRATION)
      fs.rmSync(path.join(before, migration), { recursive: true });
  await applyPendingMigrations(`file:${file}`, before);
  const old = new Database(file);
  seed(old);
  old.close();
  return file;
}

describe("the content-hash fill", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-label-hash-fill-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("gives a label on a requests-only row the generation it was given on, and a label on a metric that does not read the response none", async () => {
    const file = await oldStore(dir, "requests-only", (old) =>
      old.exec(`
        INSERT INTO "Dataset" ("id", "name", "status") VALUES ('d', 'requests only', 'ready');
        INSERT INTO "DatasetRow" ("id", "datasetId", "rowNumber", "requestId", "requestRaw", "requestFormat", "messages", "requestText", "response", "retrievedChunkCount")
          VALUES ('q1', 'd', 1, 'q-1', '"Q1?"', 'string', '[]', 'Q1?', NULL, 1),
                 ('q2', 'd', 2, 'q-2', '"Q2?"', 'string', '[]', 'Q2?', 'A dataset answer.', 1);
        INSERT INTO "Run" ("id", "datasetId", "name", "status", "judgeProvider", "judgeModel", "generationModel", "createdAt")
          VALUES ('early', 'd', 'early', 'completed', 'heuristic', 'heuristic', 'm1', '2026-11-01T09:00:00.000+00:00'),
                 ('late', 'd', 'late', 'completed', 'heuristic', 'heuristic', 'm2', '2026-11-03T09:00:00.000+00:00'),
                 ('unfinished', 'd', 'unfinished', 'completed', 'heuristic', 'heuristic', 'm3', '2026-11-01T12:00:00.000+00:00');
        INSERT INTO "Generation" ("id", "runId", "rowId", "status", "response", "model", "finishedAt")
          VALUES ('g-early', 'early', 'q1', 'done', 'Early answer.', 'm1', '2026-11-01T10:00:00.000+00:00'),
                 ('g-late', 'late', 'q1', 'done', 'Late answer.', 'm2', '2026-11-03T10:00:00.000+00:00'),
                 ('g-unfinished', 'unfinished', 'q1', 'done', 'Unfinished answer.', 'm3', NULL);
        INSERT INTO "HumanLabel" ("id", "datasetId", "rowId", "metric", "chunkPosition", "kind", "rating", "source", "labelledAt")
          VALUES ('between', 'd', 'q1', '${C}', -1, 'rating', 'no', 'ui', '2026-11-02T09:00:00.000+00:00'),
                 ('before-any', 'd', 'q1', 'response/llm_judged/safety', -1, 'rating', 'yes', 'ui', '2026-11-01T08:00:00.000+00:00'),
                 ('sufficiency', 'd', 'q2', '${SUFFICIENCY}', -1, 'rating', 'yes', 'ui', '2026-11-02T09:00:00.000+00:00'),
                 ('on-dataset', 'd', 'q2', '${C}', -1, 'rating', 'yes', 'ui', '2026-11-02T09:00:00.000+00:00');
      `),
    );
    await applyPendingMigrations(`file:${file}`, migrationsDir);
    const store = new Database(file, { readonly: true });
    const labels = store.prepare(`SELECT "id", "responseHash", "hashPending" FROM "HumanLabel" ORDER BY "id"`).all();
    store.close();
    expect(labels).toEqual([
      // Before any generation finished: nothing it can have been given on.
      { id: "before-any", responseHash: null, hashPending: 0 },
      // The latest generation before the label: the unfinished run's counts from its creation (12:00), after 'early'.
      { id: "between", responseHash: sha256("Unfinished answer."), hashPending: 0 },
      { id: "on-dataset", responseHash: sha256("A dataset answer."), hashPending: 0 },
      { id: "sufficiency", responseHash: null, hashPending: 0 },
    ]);
  }, 60_000);

  it("clears the hash a store filled earlier gave labels on metrics that do not read the response", async () => {
    const file = await oldStore(dir, "filled-before", (old) =>
      old.exec(`
        INSERT INTO "Dataset" ("id", "name", "status") VALUES ('d', 'set', 'ready');
        INSERT INTO "DatasetRow" ("id", "datasetId", "rowNumber", "requestId", "requestRaw", "requestFormat", "messages", "requestText", "response", "retrievedChunkCount")
          VALUES ('r1', 'd', 1, 'r-1', '"Q1?"', 'string', '[]', 'Q1?', 'Answer.', 1);
      `),
    );
    await applyPendingMigrations(`file:${file}`, migrationsDir);
    // As the first version of the fill left it: the row's hash on a retrieval label, and its own marker.
    const store = new Database(file);
    store.exec(`
      INSERT INTO "HumanLabel" ("id", "datasetId", "rowId", "metric", "chunkPosition", "kind", "rating", "source", "responseHash")
        VALUES ('s', 'd', 'r1', '${SUFFICIENCY}', -1, 'rating', 'yes', 'ui', '${sha256("Answer.")}'),
               ('c', 'd', 'r1', '${C}', -1, 'rating', 'yes', 'ui', '${sha256("Answer.")}');
      UPDATE "Setting" SET "value" = '{"version":1}' WHERE "key" = 'labelContentHashes';
    `);
    store.close();
    expect(await applyPendingMigrations(`file:${file}`, migrationsDir)).toEqual({ applied: [] });
    const after = new Database(file, { readonly: true });
    expect(after.prepare(`SELECT "id", "responseHash" FROM "HumanLabel" ORDER BY "id"`).all()).toEqual([
      { id: "c", responseHash: sha256("Answer.") },
      { id: "s", responseHash: null },
    ]);
    after.close();
  }, 60_000);

  it("resumes at the next start a fill that died while hashing responses in a store with no labels", async () => {
    const file = await oldStore(dir, "no-labels", (old) => {
      old.exec(`INSERT INTO "Dataset" ("id", "name", "status") VALUES ('d', 'big', 'ready')`);
      const insert = old.prepare(
        `INSERT INTO "DatasetRow" ("id", "datasetId", "rowNumber", "requestId", "requestRaw", "requestFormat", "messages", "requestText", "response", "retrievedChunkCount")
         VALUES (?, 'd', ?, ?, '"Q?"', 'string', '[]', 'Q?', ?, 0)`,
      );
      old.transaction(() => {
        for (let n = 1; n <= 2500; n += 1) insert.run(`row-${String(n).padStart(5, "0")}`, n, `q-${n}`, `Answer ${n}.`);
      })();
    });
    await applyPendingMigrations(`file:${file}`, migrationsDir);
    // The process died after the migration, part-way through hashing: some rows without their hash, no marker.
    const store = new Database(file);
    store.exec(`UPDATE "DatasetRow" SET "responseHash" = NULL WHERE "rowNumber" > 1200`);
    store.exec(`DELETE FROM "Setting" WHERE "key" = 'labelContentHashes'`);
    store.close();
    expect(await applyPendingMigrations(`file:${file}`, migrationsDir)).toEqual({ applied: [] });
    const after = new Database(file, { readonly: true });
    const missing = after.prepare(`SELECT COUNT(*) AS "n" FROM "DatasetRow" WHERE "responseHash" IS NULL`).get();
    const last = after.prepare(`SELECT "responseHash" FROM "DatasetRow" WHERE "rowNumber" = 2500`).get();
    after.close();
    expect(missing).toEqual({ n: 0 });
    expect(last).toEqual({ responseHash: sha256("Answer 2500.") });
  }, 60_000);
});
