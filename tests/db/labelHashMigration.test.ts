import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRunAgreement } from "../../lib/db/labels/agreementQueries";
import { createDb, type Db } from "../../lib/db/client";
import { applyPendingMigrations } from "../../lib/db/migrations/applyMigrations";
import { CONTENT_HASHES_SETTING } from "../../lib/db/migrations/contentHashes";

// A store labelled before labels recorded what they judged: built at the migration before
// label_content_hash, with labels, a run of the dataset's responses and a run that generated its
// own, then migrated. Each old label must get the hash of the dataset row's response it was given on.

const root = path.resolve(import.meta.dirname, "../..");
const migrationsDir = path.join(root, "prisma", "sqlite", "migrations");
const HASH_MIGRATION = fs.readdirSync(migrationsDir).find((name) => name.endsWith("_label_content_hash"))!;
const FROM_HASH_MIGRATION = fs
  .readdirSync(migrationsDir)
  .filter((name) => /^\d{14}_/.test(name) && name >= HASH_MIGRATION)
  .sort();
const G = "response/llm_judged/groundedness";
const CR = "retrieval/llm_judged/chunk_relevance";
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

describe("the label_content_hash migration on a store with old-scheme labels", () => {
  let tempDir: string;
  let url: string;
  let db: Db;
  let applied: string[];

  beforeAll(async () => {
    tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-label-hash-migration-"));
    url = `file:${path.join(tempDir, "old.db")}`;
    // The migrations folder as it was before the hash migration: it and every later one removed (a later one
    // applied before it would be undone by its table rebuild, which SQLite's migrations do to alter a table).
    const before = path.join(tempDir, "migrations-before");
    fs.cpSync(migrationsDir, before, { recursive: true });
    for (const name of FROM_HASH_MIGRATION) fs.rmSync(path.join(before, name), { recursive: true });
    await applyPendingMigrations(url, before);

    const old = new Database(path.join(tempDir, "old.db"));
    old.exec(`
      INSERT INTO "Dataset" ("id", "name", "status") VALUES ('d', 'old', 'ready');
      INSERT INTO "DatasetRow" ("id", "datasetId", "rowNumber", "requestId", "requestRaw", "requestFormat", "messages", "requestText", "response", "retrievedChunkCount")
        VALUES ('r1', 'd', 1, 'row-1', '"Q1?"', 'string', '[]', 'Q1?', 'Answer one.', 1),
               ('r2', 'd', 2, 'row-2', '"Q2?"', 'string', '[]', 'Q2?', NULL, 0);
      INSERT INTO "Run" ("id", "datasetId", "name", "status", "judgeProvider", "judgeModel")
        VALUES ('dataset-run', 'd', 'dataset responses', 'completed', 'heuristic', 'heuristic');
      INSERT INTO "Run" ("id", "datasetId", "name", "status", "judgeProvider", "judgeModel", "generationModel")
        VALUES ('generated-run', 'd', 'generated', 'completed', 'heuristic', 'heuristic', 'gen-model');
      INSERT INTO "Generation" ("id", "runId", "rowId", "status", "response", "model")
        VALUES ('g1', 'generated-run', 'r1', 'done', 'A generated answer.', 'gen-model');
      INSERT INTO "JudgmentItem" ("id", "runId", "rowId", "metric", "status", "rating")
        VALUES ('j1', 'dataset-run', 'r1', '${G}', 'done', 'yes'),
               ('j2', 'generated-run', 'r1', '${G}', 'done', 'yes');
      INSERT INTO "HumanLabel" ("id", "datasetId", "rowId", "metric", "chunkPosition", "kind", "rating", "source")
        VALUES ('l1', 'd', 'r1', '${G}', -1, 'rating', 'no', 'ui'),
               ('l2', 'd', 'r1', '${CR}', 0, 'rating', 'yes', 'upload'),
               ('l3', 'd', 'r2', '${G}', -1, 'rating', 'yes', 'import');
      INSERT INTO "HumanLabelRevision" ("id", "datasetId", "rowId", "metric", "chunkPosition", "revision", "action", "kind", "rating", "source")
        VALUES ('v1', 'd', 'r1', '${G}', -1, 1, 'set', 'rating', 'no', 'ui');
    `);
    old.close();

    ({ applied } = await applyPendingMigrations(url, migrationsDir));
    db = createDb(url);
  }, 60_000);

  afterAll(async () => {
    await db?.$disconnect();
    fs.rmSync(tempDir, { recursive: true, force: true });
  });

  it("applies the hash migration and hashes every stored response", async () => {
    expect(applied).toEqual(FROM_HASH_MIGRATION);
    const rows = await db.datasetRow.findMany({ orderBy: { rowNumber: "asc" } });
    expect(rows.map((row) => row.responseHash)).toEqual([sha256("Answer one."), null]);
    const generation = await db.generation.findUniqueOrThrow({ where: { id: "g1" } });
    expect(generation.responseHash).toBe(sha256("A generated answer."));
  });

  it("gives each old whole-row label its dataset row's response hash, and chunk labels none", async () => {
    const labels = await db.humanLabel.findMany({ orderBy: { id: "asc" } });
    expect(labels.map(({ id, responseHash, hashPending }) => ({ id, responseHash, hashPending }))).toEqual([
      { id: "l1", responseHash: sha256("Answer one."), hashPending: false },
      { id: "l2", responseHash: null, hashPending: false },
      { id: "l3", responseHash: null, hashPending: false },
    ]);
  });

  it("counts the old label on the dataset's responses and leaves it out on the generated run", async () => {
    const onDataset = (await getRunAgreement(db, { id: "dataset-run", datasetId: "d" })).find(
      (row) => row.metric === G,
    );
    expect(onDataset).toMatchObject({ labelled: 1, otherResponse: 0, confusion: { yesNo: 1 } });
    const onGenerated = (await getRunAgreement(db, { id: "generated-run", datasetId: "d" })).find(
      (row) => row.metric === G,
    );
    expect(onGenerated).toMatchObject({ labelled: 0, otherResponse: 1 });
  });

  it("finds nothing left to fill when migrations run again", async () => {
    expect(await applyPendingMigrations(url, migrationsDir)).toEqual({ applied: [] });
  });

  it("fills labels left pending by a process that died before the data step, at the next start", async () => {
    await db.humanLabel.update({ where: { id: "l1" }, data: { hashPending: true, responseHash: null } });
    // Died before the fill ended: its Setting row, written last, is not there yet.
    await db.setting.delete({ where: { key: CONTENT_HASHES_SETTING } });
    expect(await applyPendingMigrations(url, migrationsDir)).toEqual({ applied: [] });
    expect(await db.humanLabel.findUniqueOrThrow({ where: { id: "l1" } })).toMatchObject({
      hashPending: false,
      responseHash: sha256("Answer one."),
    });
  });
});
