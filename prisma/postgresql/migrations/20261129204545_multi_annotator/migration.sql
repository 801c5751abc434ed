/*
  Warnings:

  - A unique constraint covering the columns `[importId,rowId,metric,chunkPosition,labeller]` on the table `LabelImportStaging` will be added. If there are existing duplicate values, this will fail.

*/
-- DropIndex
DROP INDEX "LabelImportStaging_importId_rowId_metric_chunkPosition_key";

-- AlterTable
ALTER TABLE "HumanLabel" ADD COLUMN     "gold" TEXT NOT NULL DEFAULT 'single',
ADD COLUMN     "labels" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "LabelImportStaging" ADD COLUMN     "labeller" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "PersonLabel" (
    "id" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "chunkPosition" INTEGER NOT NULL DEFAULT -1,
    "labeller" TEXT NOT NULL DEFAULT '',
    "statedBy" TEXT,
    "kind" TEXT NOT NULL,
    "rating" TEXT,
    "score" DOUBLE PRECISION,
    "reason" TEXT,
    "labelledAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "source" TEXT NOT NULL DEFAULT 'ui',
    "responseHash" TEXT,

    CONSTRAINT "PersonLabel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LabelAdjudication" (
    "id" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "chunkPosition" INTEGER NOT NULL DEFAULT -1,
    "kind" TEXT NOT NULL,
    "rating" TEXT,
    "score" DOUBLE PRECISION,
    "reason" TEXT NOT NULL,
    "decidedBy" TEXT,
    "decidedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LabelAdjudication_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LabelQueueSetting" (
    "datasetId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "labelsPerRow" INTEGER NOT NULL DEFAULT 1,
    "hideJudge" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LabelQueueSetting_pkey" PRIMARY KEY ("datasetId","metric")
);

-- CreateIndex
CREATE INDEX "PersonLabel_datasetId_metric_chunkPosition_rowId_labeller_k_idx" ON "PersonLabel"("datasetId", "metric", "chunkPosition", "rowId", "labeller", "kind", "rating", "score");

-- CreateIndex
CREATE INDEX "PersonLabel_datasetId_labeller_metric_idx" ON "PersonLabel"("datasetId", "labeller", "metric");

-- CreateIndex
CREATE UNIQUE INDEX "PersonLabel_rowId_metric_chunkPosition_labeller_key" ON "PersonLabel"("rowId", "metric", "chunkPosition", "labeller");

-- CreateIndex
CREATE INDEX "LabelAdjudication_datasetId_metric_idx" ON "LabelAdjudication"("datasetId", "metric");

-- CreateIndex
CREATE UNIQUE INDEX "LabelAdjudication_rowId_metric_chunkPosition_key" ON "LabelAdjudication"("rowId", "metric", "chunkPosition");

-- CreateIndex
CREATE UNIQUE INDEX "LabelImportStaging_importId_rowId_metric_chunkPosition_labe_key" ON "LabelImportStaging"("importId", "rowId", "metric", "chunkPosition", "labeller");

-- AddForeignKey
ALTER TABLE "PersonLabel" ADD CONSTRAINT "PersonLabel_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LabelAdjudication" ADD CONSTRAINT "LabelAdjudication_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LabelQueueSetting" ADD CONSTRAINT "LabelQueueSetting_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every current label becomes its labeller's own label; the current label stays as the gold label
-- (one person's: gold 'single', labels 1). The id is the gold label's, prefixed, so it is unique.
INSERT INTO "PersonLabel" ("id", "datasetId", "rowId", "metric", "chunkPosition", "labeller", "statedBy", "kind", "rating", "score", "reason", "labelledAt", "source", "responseHash")
SELECT 'p-' || "id", "datasetId", "rowId", "metric", "chunkPosition", COALESCE("labelledBy", ''), "statedBy", "kind", "rating", "score", "reason", "labelledAt", "source", "responseHash"
FROM "HumanLabel";
