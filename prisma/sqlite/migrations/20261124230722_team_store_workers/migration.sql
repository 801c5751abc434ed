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
    "heldAt" DATETIME,

    PRIMARY KEY ("endpoint", "slot")
);

-- CreateTable
CREATE TABLE "RunWorkerSpending" (
    "runId" TEXT NOT NULL,
    "workerId" TEXT NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "usd" REAL NOT NULL DEFAULT 0,
    "heldCalls" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("runId", "workerId"),
    CONSTRAINT "RunWorkerSpending_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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

-- What each run has spent so far, from its stored judgments and generations (as
-- lib/db/runs/runBudget.ts summed them on every read until now), kept from here
-- on by the writers. A generation stored before its attempts were recorded counts
-- as the one call it made at least.
INSERT INTO "RunWorkerSpending" ("runId", "workerId", "calls", "tokens", "usd", "heldCalls")
SELECT r."id", 'before-workers',
  COALESCE((SELECT SUM(j."attempts") FROM "JudgmentItem" j WHERE j."runId" = r."id" AND j."status" IN ('done', 'error')), 0)
    + COALESCE((SELECT SUM(COALESCE(g."attempts", 1)) FROM "Generation" g WHERE g."runId" = r."id" AND g."status" IN ('done', 'error')), 0),
  COALESCE((SELECT SUM(COALESCE(j."inputTokens", 0) + COALESCE(j."outputTokens", 0)) FROM "JudgmentItem" j WHERE j."runId" = r."id" AND j."status" IN ('done', 'error')), 0)
    + COALESCE((SELECT SUM(COALESCE(g."inputTokenCount", 0) + COALESCE(g."outputTokenCount", 0)) FROM "Generation" g WHERE g."runId" = r."id" AND g."status" IN ('done', 'error')), 0),
  COALESCE((SELECT SUM(j."costUsd") FROM "JudgmentItem" j WHERE j."runId" = r."id" AND j."status" IN ('done', 'error')), 0)
    + COALESCE((SELECT SUM(g."costUsd") FROM "Generation" g WHERE g."runId" = r."id" AND g."status" IN ('done', 'error')), 0),
  0
FROM "Run" r;
