-- AlterTable
ALTER TABLE "CustomJudge" ADD COLUMN "basedOn" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_JudgeAlignment" (
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
    "judgeName" TEXT NOT NULL DEFAULT '',
    "definition" TEXT NOT NULL DEFAULT '{}',
    "judgeModel" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'measuring',
    "progressDone" INTEGER NOT NULL DEFAULT 0,
    "progressTotal" INTEGER NOT NULL DEFAULT 0,
    "heartbeatAt" DATETIME,
    "errorMessage" TEXT,
    "llmCalls" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" REAL,
    "comparison" TEXT,
    "baseRunId" TEXT,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "JudgeAlignment_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_JudgeAlignment" ("baseRunId", "comparison", "createdAt", "createdById", "datasetId", "examples", "guidance", "heldOutKeys", "heldOutShare", "id", "metric", "promptSuffix", "seed", "status", "trainingKeys", "version") SELECT "baseRunId", "comparison", "createdAt", "createdById", "datasetId", "examples", "guidance", "heldOutKeys", "heldOutShare", "id", "metric", "promptSuffix", "seed", "status", "trainingKeys", "version" FROM "JudgeAlignment";
DROP TABLE "JudgeAlignment";
ALTER TABLE "new_JudgeAlignment" RENAME TO "JudgeAlignment";
CREATE UNIQUE INDEX "JudgeAlignment_datasetId_metric_version_key" ON "JudgeAlignment"("datasetId", "metric", "version");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
