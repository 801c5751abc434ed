-- CreateTable
CREATE TABLE "LabelReservation" (
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "chunkPosition" INTEGER NOT NULL,
    "datasetId" TEXT NOT NULL,
    "labeller" TEXT NOT NULL,
    "until" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LabelReservation_pkey" PRIMARY KEY ("rowId","metric","chunkPosition")
);

-- CreateIndex
CREATE INDEX "LabelReservation_datasetId_metric_until_idx" ON "LabelReservation"("datasetId", "metric", "until");
