-- CreateTable
CREATE TABLE "HumanLabel" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "datasetId" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "chunkPosition" INTEGER NOT NULL DEFAULT -1,
    "kind" TEXT NOT NULL,
    "rating" TEXT,
    "score" REAL,
    "labelledBy" TEXT,
    "labelledAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "source" TEXT NOT NULL DEFAULT 'ui',
    "revision" INTEGER NOT NULL DEFAULT 1,
    CONSTRAINT "HumanLabel_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "HumanLabelRevision" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "datasetId" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "chunkPosition" INTEGER NOT NULL DEFAULT -1,
    "revision" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "kind" TEXT,
    "rating" TEXT,
    "score" REAL,
    "labelledBy" TEXT,
    "labelledAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "source" TEXT NOT NULL DEFAULT 'ui',
    CONSTRAINT "HumanLabelRevision_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "HumanLabel_datasetId_metric_chunkPosition_rowId_kind_rating_score_idx" ON "HumanLabel"("datasetId", "metric", "chunkPosition", "rowId", "kind", "rating", "score");

-- CreateIndex
CREATE UNIQUE INDEX "HumanLabel_rowId_metric_chunkPosition_key" ON "HumanLabel"("rowId", "metric", "chunkPosition");

-- CreateIndex
CREATE INDEX "HumanLabelRevision_datasetId_labelledAt_idx" ON "HumanLabelRevision"("datasetId", "labelledAt");

-- CreateIndex
CREATE UNIQUE INDEX "HumanLabelRevision_rowId_metric_chunkPosition_revision_key" ON "HumanLabelRevision"("rowId", "metric", "chunkPosition", "revision");
