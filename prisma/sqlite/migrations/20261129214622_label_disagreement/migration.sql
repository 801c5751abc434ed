-- CreateTable
CREATE TABLE "LabelDisagreement" (
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "chunkPosition" INTEGER NOT NULL,
    "datasetId" TEXT NOT NULL,

    PRIMARY KEY ("rowId", "metric", "chunkPosition")
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Dataset" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "sourceFilename" TEXT,
    "sourceFormat" TEXT,
    "status" TEXT NOT NULL DEFAULT 'importing',
    "rowCount" INTEGER NOT NULL DEFAULT 0,
    "warnings" TEXT NOT NULL DEFAULT '[]',
    "labelsVersion" INTEGER NOT NULL DEFAULT 0,
    "inputCoverage" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT,
    "importOwner" TEXT,
    "importHeartbeatAt" DATETIME
);
INSERT INTO "new_Dataset" ("createdAt", "createdById", "id", "importHeartbeatAt", "importOwner", "inputCoverage", "name", "rowCount", "sourceFilename", "sourceFormat", "status", "warnings") SELECT "createdAt", "createdById", "id", "importHeartbeatAt", "importOwner", "inputCoverage", "name", "rowCount", "sourceFilename", "sourceFormat", "status", "warnings" FROM "Dataset";
DROP TABLE "Dataset";
ALTER TABLE "new_Dataset" RENAME TO "Dataset";
CREATE INDEX "Dataset_status_createdAt_idx" ON "Dataset"("status", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "LabelDisagreement_datasetId_metric_rowId_idx" ON "LabelDisagreement"("datasetId", "metric", "rowId");
