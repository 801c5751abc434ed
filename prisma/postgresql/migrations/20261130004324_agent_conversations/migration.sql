-- AlterTable
ALTER TABLE "DatasetRow" ADD COLUMN     "conversationAnchor" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "conversationTurns" INTEGER,
ADD COLUMN     "sessionId" TEXT,
ADD COLUMN     "sessionTime" DOUBLE PRECISION;

-- CreateIndex
CREATE INDEX "DatasetRow_datasetId_sessionId_sessionTime_rowNumber_idx" ON "DatasetRow"("datasetId", "sessionId", "sessionTime", "rowNumber");
