-- CreateTable
CREATE TABLE "JudgeAlignment" (
    "id" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "seed" TEXT NOT NULL,
    "heldOutShare" DOUBLE PRECISION NOT NULL,
    "trainingKeys" TEXT NOT NULL,
    "heldOutKeys" TEXT NOT NULL,
    "examples" TEXT NOT NULL,
    "guidance" TEXT,
    "promptSuffix" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "comparison" TEXT,
    "baseRunId" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "JudgeAlignment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "JudgeAlignment_datasetId_metric_version_key" ON "JudgeAlignment"("datasetId", "metric", "version");

-- AddForeignKey
ALTER TABLE "JudgeAlignment" ADD CONSTRAINT "JudgeAlignment_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;
