-- CreateTable
CREATE TABLE "LabelReservation" (
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "chunkPosition" INTEGER NOT NULL,
    "datasetId" TEXT NOT NULL,
    "labeller" TEXT NOT NULL,
    "until" DATETIME NOT NULL,

    PRIMARY KEY ("rowId", "metric", "chunkPosition")
);

-- CreateIndex
CREATE INDEX "LabelReservation_datasetId_metric_until_idx" ON "LabelReservation"("datasetId", "metric", "until");
