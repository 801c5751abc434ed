-- AlterTable (columns added in place: redefining DatasetRow would copy every row and its trace)
ALTER TABLE "DatasetRow" ADD COLUMN "sessionId" TEXT;
ALTER TABLE "DatasetRow" ADD COLUMN "sessionTime" REAL;
ALTER TABLE "DatasetRow" ADD COLUMN "conversationAnchor" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "DatasetRow" ADD COLUMN "conversationTurns" INTEGER;

-- CreateIndex
CREATE INDEX "DatasetRow_datasetId_sessionId_sessionTime_rowNumber_idx" ON "DatasetRow"("datasetId", "sessionId", "sessionTime", "rowNumber");
