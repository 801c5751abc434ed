-- CreateTable
CREATE TABLE "PairwiseComparison" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "baselineRunId" TEXT NOT NULL,
    "candidateRunId" TEXT NOT NULL,
    "criteria" TEXT NOT NULL,
    "orders" TEXT NOT NULL DEFAULT 'both',
    "seed" TEXT NOT NULL,
    "judgeProvider" TEXT NOT NULL,
    "judgeModel" TEXT NOT NULL,
    "concurrency" INTEGER NOT NULL DEFAULT 8,
    "status" TEXT NOT NULL DEFAULT 'planning',
    "errorMessage" TEXT,
    "progressDone" INTEGER NOT NULL DEFAULT 0,
    "progressTotal" INTEGER NOT NULL DEFAULT 0,
    "heartbeatAt" DATETIME,
    "ownerId" TEXT,
    "llmCalls" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" REAL,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "PairwiseComparison_baselineRunId_fkey" FOREIGN KEY ("baselineRunId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PairwiseComparison_candidateRunId_fkey" FOREIGN KEY ("candidateRunId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PairwiseVerdict" (
    "comparisonId" TEXT NOT NULL,
    "criterion" TEXT NOT NULL,
    "baselineRowId" TEXT NOT NULL,
    "candidateRowId" TEXT NOT NULL,
    "rowNumber" INTEGER NOT NULL,
    "shownOrder" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "winner" TEXT,
    "rationale" TEXT,
    "errorMessage" TEXT,
    "baselineLength" INTEGER,
    "candidateLength" INTEGER,
    "promptVersion" TEXT,
    "promptHash" TEXT,
    "cacheHit" BOOLEAN NOT NULL DEFAULT false,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" REAL,
    "judgedAt" DATETIME,

    PRIMARY KEY ("comparisonId", "criterion", "baselineRowId", "shownOrder"),
    CONSTRAINT "PairwiseVerdict_comparisonId_fkey" FOREIGN KEY ("comparisonId") REFERENCES "PairwiseComparison" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PairwisePreference" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "baselineRowId" TEXT NOT NULL,
    "candidateRowId" TEXT NOT NULL,
    "baselineResponseHash" TEXT NOT NULL,
    "candidateResponseHash" TEXT NOT NULL,
    "choice" TEXT NOT NULL,
    "reason" TEXT,
    "labelledBy" TEXT NOT NULL,
    "labelledAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "baselineRunId" TEXT,
    "candidateRunId" TEXT
);

-- CreateIndex
CREATE INDEX "PairwiseComparison_candidateRunId_baselineRunId_createdAt_idx" ON "PairwiseComparison"("candidateRunId", "baselineRunId", "createdAt");

-- CreateIndex
CREATE INDEX "PairwiseComparison_baselineRunId_idx" ON "PairwiseComparison"("baselineRunId");

-- CreateIndex
CREATE INDEX "PairwiseComparison_status_idx" ON "PairwiseComparison"("status");

-- CreateIndex
CREATE INDEX "PairwiseVerdict_comparisonId_status_rowNumber_idx" ON "PairwiseVerdict"("comparisonId", "status", "rowNumber");

-- CreateIndex
CREATE INDEX "PairwiseVerdict_comparisonId_criterion_status_shownOrder_winner_baselineLength_candidateLength_idx" ON "PairwiseVerdict"("comparisonId", "criterion", "status", "shownOrder", "winner", "baselineLength", "candidateLength");

-- CreateIndex
CREATE INDEX "PairwisePreference_baselineRunId_candidateRunId_idx" ON "PairwisePreference"("baselineRunId", "candidateRunId");

-- CreateIndex
CREATE UNIQUE INDEX "PairwisePreference_baselineRowId_candidateRowId_baselineResponseHash_candidateResponseHash_labelledBy_key" ON "PairwisePreference"("baselineRowId", "candidateRowId", "baselineResponseHash", "candidateResponseHash", "labelledBy");
