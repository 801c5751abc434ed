-- CreateTable
CREATE TABLE "PersonLabel" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "datasetId" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "chunkPosition" INTEGER NOT NULL DEFAULT -1,
    "labeller" TEXT NOT NULL DEFAULT '',
    "statedBy" TEXT,
    "kind" TEXT NOT NULL,
    "rating" TEXT,
    "score" REAL,
    "reason" TEXT,
    "labelledAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "source" TEXT NOT NULL DEFAULT 'ui',
    "responseHash" TEXT,
    CONSTRAINT "PersonLabel_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "LabelAdjudication" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "datasetId" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "chunkPosition" INTEGER NOT NULL DEFAULT -1,
    "kind" TEXT NOT NULL,
    "rating" TEXT,
    "score" REAL,
    "reason" TEXT NOT NULL,
    "decidedBy" TEXT,
    "decidedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "LabelAdjudication_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "LabelQueueSetting" (
    "datasetId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "labelsPerRow" INTEGER NOT NULL DEFAULT 1,
    "hideJudge" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("datasetId", "metric"),
    CONSTRAINT "LabelQueueSetting_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

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
    "reason" TEXT,
    "labelledBy" TEXT,
    "statedBy" TEXT,
    "labelledAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "source" TEXT NOT NULL DEFAULT 'ui',
    "revision" INTEGER NOT NULL DEFAULT 1,
    "responseHash" TEXT,
    "hashPending" BOOLEAN NOT NULL DEFAULT false,
    "labels" INTEGER NOT NULL DEFAULT 1,
    "gold" TEXT NOT NULL DEFAULT 'single',
    CONSTRAINT "HumanLabel_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_HumanLabel" ("chunkPosition", "datasetId", "hashPending", "id", "kind", "labelledAt", "labelledBy", "metric", "rating", "reason", "responseHash", "revision", "rowId", "score", "source", "statedBy") SELECT "chunkPosition", "datasetId", "hashPending", "id", "kind", "labelledAt", "labelledBy", "metric", "rating", "reason", "responseHash", "revision", "rowId", "score", "source", "statedBy" FROM "HumanLabel";
DROP TABLE "HumanLabel";
ALTER TABLE "new_HumanLabel" RENAME TO "HumanLabel";
CREATE INDEX "HumanLabel_datasetId_metric_chunkPosition_rowId_kind_rating_score_responseHash_idx" ON "HumanLabel"("datasetId", "metric", "chunkPosition", "rowId", "kind", "rating", "score", "responseHash");
CREATE UNIQUE INDEX "HumanLabel_rowId_metric_chunkPosition_key" ON "HumanLabel"("rowId", "metric", "chunkPosition");
CREATE TABLE "new_LabelImportStaging" (
    "importId" TEXT NOT NULL,
    "fileRow" INTEGER NOT NULL,
    "fileLine" INTEGER NOT NULL,
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "chunkPosition" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "rating" TEXT,
    "score" REAL,
    "reason" TEXT,
    "labelledBy" TEXT,
    "statedBy" TEXT,
    "labeller" TEXT NOT NULL DEFAULT '',
    "unchanged" BOOLEAN NOT NULL DEFAULT false,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("importId", "fileRow")
);
INSERT INTO "new_LabelImportStaging" ("chunkPosition", "createdAt", "fileLine", "fileRow", "importId", "kind", "labelledBy", "metric", "rating", "reason", "revision", "rowId", "score", "statedBy", "unchanged") SELECT "chunkPosition", "createdAt", "fileLine", "fileRow", "importId", "kind", "labelledBy", "metric", "rating", "reason", "revision", "rowId", "score", "statedBy", "unchanged" FROM "LabelImportStaging";
DROP TABLE "LabelImportStaging";
ALTER TABLE "new_LabelImportStaging" RENAME TO "LabelImportStaging";
CREATE INDEX "LabelImportStaging_createdAt_idx" ON "LabelImportStaging"("createdAt");
CREATE UNIQUE INDEX "LabelImportStaging_importId_rowId_metric_chunkPosition_labeller_key" ON "LabelImportStaging"("importId", "rowId", "metric", "chunkPosition", "labeller");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "PersonLabel_datasetId_metric_chunkPosition_rowId_labeller_kind_rating_score_idx" ON "PersonLabel"("datasetId", "metric", "chunkPosition", "rowId", "labeller", "kind", "rating", "score");

-- CreateIndex
CREATE INDEX "PersonLabel_datasetId_labeller_metric_idx" ON "PersonLabel"("datasetId", "labeller", "metric");

-- CreateIndex
CREATE UNIQUE INDEX "PersonLabel_rowId_metric_chunkPosition_labeller_key" ON "PersonLabel"("rowId", "metric", "chunkPosition", "labeller");

-- CreateIndex
CREATE INDEX "LabelAdjudication_datasetId_metric_idx" ON "LabelAdjudication"("datasetId", "metric");

-- CreateIndex
CREATE UNIQUE INDEX "LabelAdjudication_rowId_metric_chunkPosition_key" ON "LabelAdjudication"("rowId", "metric", "chunkPosition");

-- Every current label becomes its labeller's own label; the current label stays as the gold label
-- (one person's: gold 'single', labels 1). The id is the gold label's, prefixed, so it is unique.
INSERT INTO "PersonLabel" ("id", "datasetId", "rowId", "metric", "chunkPosition", "labeller", "statedBy", "kind", "rating", "score", "reason", "labelledAt", "source", "responseHash")
SELECT 'p-' || "id", "datasetId", "rowId", "metric", "chunkPosition", COALESCE("labelledBy", ''), "statedBy", "kind", "rating", "score", "reason", "labelledAt", "source", "responseHash"
FROM "HumanLabel";
