-- CreateTable
CREATE TABLE "PairwiseComparison" (
    "id" TEXT NOT NULL,
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
    "heartbeatAt" TIMESTAMP(3),
    "ownerId" TEXT,
    "llmCalls" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DOUBLE PRECISION,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "PairwiseComparison_pkey" PRIMARY KEY ("id")
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
    "costUsd" DOUBLE PRECISION,
    "judgedAt" TIMESTAMP(3),

    CONSTRAINT "PairwiseVerdict_pkey" PRIMARY KEY ("comparisonId","criterion","baselineRowId","shownOrder")
);

-- CreateTable
CREATE TABLE "PairwisePreference" (
    "id" TEXT NOT NULL,
    "baselineRowId" TEXT NOT NULL,
    "candidateRowId" TEXT NOT NULL,
    "baselineResponseHash" TEXT NOT NULL,
    "candidateResponseHash" TEXT NOT NULL,
    "choice" TEXT NOT NULL,
    "reason" TEXT,
    "labelledBy" TEXT NOT NULL,
    "labelledAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "baselineRunId" TEXT,
    "candidateRunId" TEXT,

    CONSTRAINT "PairwisePreference_pkey" PRIMARY KEY ("id")
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
CREATE INDEX "PairwiseVerdict_comparisonId_criterion_status_shownOrder_wi_idx" ON "PairwiseVerdict"("comparisonId", "criterion", "status", "shownOrder", "winner", "baselineLength", "candidateLength");

-- CreateIndex
CREATE INDEX "PairwisePreference_baselineRunId_candidateRunId_idx" ON "PairwisePreference"("baselineRunId", "candidateRunId");

-- CreateIndex
CREATE UNIQUE INDEX "PairwisePreference_baselineRowId_candidateRowId_baselineRes_key" ON "PairwisePreference"("baselineRowId", "candidateRowId", "baselineResponseHash", "candidateResponseHash", "labelledBy");

-- AddForeignKey
ALTER TABLE "PairwiseComparison" ADD CONSTRAINT "PairwiseComparison_baselineRunId_fkey" FOREIGN KEY ("baselineRunId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PairwiseComparison" ADD CONSTRAINT "PairwiseComparison_candidateRunId_fkey" FOREIGN KEY ("candidateRunId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PairwiseVerdict" ADD CONSTRAINT "PairwiseVerdict_comparisonId_fkey" FOREIGN KEY ("comparisonId") REFERENCES "PairwiseComparison"("id") ON DELETE CASCADE ON UPDATE CASCADE;
