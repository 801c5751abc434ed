-- DropIndex
DROP INDEX "DatasetRow_datasetId_requestText_idx";

-- DropIndex
DROP INDEX "Generation_runId_status_idx";

-- DropIndex
DROP INDEX "JudgmentItem_runId_status_idx";

-- AlterTable
ALTER TABLE "Generation" ADD COLUMN "claimedAt" DATETIME;
ALTER TABLE "Generation" ADD COLUMN "claimedBy" TEXT;

-- AlterTable
ALTER TABLE "JudgmentItem" ADD COLUMN "claimedAt" DATETIME;
ALTER TABLE "JudgmentItem" ADD COLUMN "claimedBy" TEXT;

-- CreateTable
CREATE TABLE "Worker" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "version" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" DATETIME NOT NULL,
    "stoppedAt" DATETIME,
    "runId" TEXT,
    "inFlight" INTEGER NOT NULL DEFAULT 0,
    "completed" INTEGER NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "InFlightSlot" (
    "endpoint" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "holder" TEXT,
    "heldUntil" DATETIME,

    PRIMARY KEY ("endpoint", "slot")
);

-- CreateIndex
CREATE INDEX "Worker_heartbeatAt_idx" ON "Worker"("heartbeatAt");

-- CreateIndex
CREATE INDEX "InFlightSlot_holder_idx" ON "InFlightSlot"("holder");

-- CreateIndex
CREATE INDEX "Generation_runId_status_id_idx" ON "Generation"("runId", "status", "id");

-- CreateIndex
CREATE INDEX "Generation_claimedBy_idx" ON "Generation"("claimedBy");

-- CreateIndex
CREATE INDEX "JudgmentItem_runId_status_id_idx" ON "JudgmentItem"("runId", "status", "id");

-- CreateIndex
CREATE INDEX "JudgmentItem_claimedBy_idx" ON "JudgmentItem"("claimedBy");
