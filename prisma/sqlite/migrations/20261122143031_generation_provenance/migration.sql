-- AlterTable
ALTER TABLE "Generation" ADD COLUMN "promptHash" TEXT;
ALTER TABLE "Generation" ADD COLUMN "templateHash" TEXT;
ALTER TABLE "Generation" ADD COLUMN "templateVersion" TEXT;

-- CreateIndex
CREATE INDEX "Generation_runId_templateVersion_templateHash_idx" ON "Generation"("runId", "templateVersion", "templateHash");
