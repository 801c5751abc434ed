-- AlterTable
ALTER TABLE "DatasetRow" ADD COLUMN "responseHash" TEXT;

-- AlterTable
ALTER TABLE "Generation" ADD COLUMN "responseHash" TEXT;

-- AlterTable
ALTER TABLE "HumanLabelRevision" ADD COLUMN "responseHash" TEXT;
ALTER TABLE "HumanLabelRevision" ADD COLUMN "runId" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_HumanLabel" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "datasetId" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "chunkPosition" INTEGER NOT NULL DEFAULT -1,
    "kind" TEXT NOT NULL,
    "rating" TEXT,
    "score" REAL,
    "labelledBy" TEXT,
    "statedBy" TEXT,
    "labelledAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "source" TEXT NOT NULL DEFAULT 'ui',
    "revision" INTEGER NOT NULL DEFAULT 1,
    "responseHash" TEXT,
    "hashPending" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "HumanLabel_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_HumanLabel" ("chunkPosition", "datasetId", "id", "kind", "labelledAt", "labelledBy", "metric", "rating", "revision", "rowId", "score", "source", "statedBy") SELECT "chunkPosition", "datasetId", "id", "kind", "labelledAt", "labelledBy", "metric", "rating", "revision", "rowId", "score", "source", "statedBy" FROM "HumanLabel";
DROP TABLE "HumanLabel";
ALTER TABLE "new_HumanLabel" RENAME TO "HumanLabel";
CREATE INDEX "HumanLabel_datasetId_metric_chunkPosition_rowId_kind_rating_score_responseHash_idx" ON "HumanLabel"("datasetId", "metric", "chunkPosition", "rowId", "kind", "rating", "score", "responseHash");
CREATE UNIQUE INDEX "HumanLabel_rowId_metric_chunkPosition_key" ON "HumanLabel"("rowId", "metric", "chunkPosition");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Labels given before this change: the data step that follows migrating
-- (lib/db/migrations/contentHashes.ts) gives each the hash of its dataset
-- row's response, once rows have their hashes (SQLite has no sha256).
UPDATE "HumanLabel" SET "hashPending" = true;

-- Covering indexes: a label's match on a response hash reads no wide row.
CREATE INDEX "DatasetRow_response_hash_idx" ON "DatasetRow"("id", "responseHash");
CREATE INDEX "Generation_response_hash_idx" ON "Generation"("runId", "rowId", "responseHash");
