-- CreateTable
CREATE TABLE "JudgeAlignment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "datasetId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "seed" TEXT NOT NULL,
    "heldOutShare" REAL NOT NULL,
    "trainingKeys" TEXT NOT NULL,
    "heldOutKeys" TEXT NOT NULL,
    "examples" TEXT NOT NULL,
    "guidance" TEXT,
    "promptSuffix" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "comparison" TEXT,
    "baseRunId" TEXT,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "JudgeAlignment_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "JudgeAlignment_datasetId_metric_version_key" ON "JudgeAlignment"("datasetId", "metric", "version");
