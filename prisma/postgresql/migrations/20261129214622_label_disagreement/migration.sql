-- AlterTable
ALTER TABLE "Dataset" ADD COLUMN     "labelsVersion" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "LabelDisagreement" (
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "chunkPosition" INTEGER NOT NULL,
    "datasetId" TEXT NOT NULL,

    CONSTRAINT "LabelDisagreement_pkey" PRIMARY KEY ("rowId","metric","chunkPosition")
);

-- CreateIndex
CREATE INDEX "LabelDisagreement_datasetId_metric_rowId_idx" ON "LabelDisagreement"("datasetId", "metric", "rowId");
