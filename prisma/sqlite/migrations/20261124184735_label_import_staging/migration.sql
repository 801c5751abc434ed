-- CreateTable
CREATE TABLE "LabelImportStaging" (
    "importId" TEXT NOT NULL,
    "fileRow" INTEGER NOT NULL,
    "fileLine" INTEGER NOT NULL,
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "chunkPosition" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "rating" TEXT,
    "score" REAL,
    "labelledBy" TEXT,
    "statedBy" TEXT,
    "unchanged" BOOLEAN NOT NULL DEFAULT false,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("importId", "fileRow")
);

-- CreateIndex
CREATE INDEX "LabelImportStaging_createdAt_idx" ON "LabelImportStaging"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "LabelImportStaging_importId_rowId_metric_chunkPosition_key" ON "LabelImportStaging"("importId", "rowId", "metric", "chunkPosition");
