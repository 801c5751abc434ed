-- CreateTable
CREATE TABLE "RunEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "pendingJudgments" INTEGER,
    "worker" TEXT,
    CONSTRAINT "RunEvent_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "datasetId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tags" TEXT NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "errorMessage" TEXT,
    "judgeProvider" TEXT NOT NULL,
    "judgeModel" TEXT NOT NULL,
    "concurrency" INTEGER NOT NULL DEFAULT 8,
    "config" TEXT NOT NULL DEFAULT '{}',
    "generationModel" TEXT,
    "generationSystemPrompt" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "workingMs" INTEGER NOT NULL DEFAULT 0,
    "rejudgeTotal" INTEGER,
    CONSTRAINT "Run_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Run" ("concurrency", "config", "createdAt", "datasetId", "errorMessage", "finishedAt", "generationModel", "generationSystemPrompt", "id", "judgeModel", "judgeProvider", "leaseExpiresAt", "leaseOwner", "name", "startedAt", "status", "tags") SELECT "concurrency", "config", "createdAt", "datasetId", "errorMessage", "finishedAt", "generationModel", "generationSystemPrompt", "id", "judgeModel", "judgeProvider", "leaseExpiresAt", "leaseOwner", "name", "startedAt", "status", "tags" FROM "Run";
DROP TABLE "Run";
ALTER TABLE "new_Run" RENAME TO "Run";
CREATE INDEX "Run_datasetId_createdAt_idx" ON "Run"("datasetId", "createdAt");
CREATE INDEX "Run_status_idx" ON "Run"("status");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "RunEvent_runId_at_idx" ON "RunEvent"("runId", "at");
