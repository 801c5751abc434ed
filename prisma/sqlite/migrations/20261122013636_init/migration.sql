-- CreateTable
CREATE TABLE "Dataset" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "sourceFilename" TEXT,
    "sourceFormat" TEXT,
    "status" TEXT NOT NULL DEFAULT 'importing',
    "rowCount" INTEGER NOT NULL DEFAULT 0,
    "warnings" TEXT NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "DatasetRow" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "datasetId" TEXT NOT NULL,
    "rowNumber" INTEGER NOT NULL,
    "requestId" TEXT NOT NULL,
    "requestRaw" TEXT NOT NULL,
    "requestFormat" TEXT NOT NULL,
    "messages" TEXT NOT NULL,
    "requestText" TEXT NOT NULL,
    "response" TEXT,
    "responseSource" TEXT,
    "expectedResponse" TEXT,
    "expectedFacts" TEXT,
    "trace" TEXT,
    "totalTokenCount" INTEGER,
    "inputTokenCount" INTEGER,
    "outputTokenCount" INTEGER,
    "latencySeconds" REAL,
    "hasResponse" BOOLEAN NOT NULL DEFAULT false,
    "hasExpectedResponse" BOOLEAN NOT NULL DEFAULT false,
    "hasExpectedFacts" BOOLEAN NOT NULL DEFAULT false,
    "hasRetrievedContext" BOOLEAN NOT NULL DEFAULT false,
    "hasRetrievedContent" BOOLEAN NOT NULL DEFAULT false,
    "hasExpectedRetrievedContext" BOOLEAN NOT NULL DEFAULT false,
    "hasTrace" BOOLEAN NOT NULL DEFAULT false,
    "retrievedChunkCount" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "DatasetRow_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ContextChunk" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "rowId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "content" TEXT,
    "docUri" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'column',
    CONSTRAINT "ContextChunk_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Run" (
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
    CONSTRAINT "Run_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CustomJudge" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "assessmentName" TEXT NOT NULL,
    "assessmentType" TEXT NOT NULL,
    "instructions" TEXT NOT NULL,
    CONSTRAINT "CustomJudge_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Generation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "response" TEXT,
    "errorMessage" TEXT,
    "model" TEXT NOT NULL,
    "inputTokenCount" INTEGER,
    "outputTokenCount" INTEGER,
    "latencySeconds" REAL,
    "finishedAt" DATETIME,
    CONSTRAINT "Generation_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Generation_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "JudgmentItem" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "rating" TEXT,
    "score" REAL,
    "threshold" REAL,
    "passed" BOOLEAN,
    "rationale" TEXT,
    "errorMessage" TEXT,
    "skipReason" TEXT,
    "judgeProvider" TEXT,
    "judgeModel" TEXT,
    "promptVersion" TEXT,
    "promptHash" TEXT,
    "cacheHit" BOOLEAN NOT NULL DEFAULT false,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "costUsd" REAL,
    "latencyMs" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "JudgmentItem_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "JudgmentItem_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ChunkJudgment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "judgmentId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "rating" TEXT,
    "rationale" TEXT,
    "errorMessage" TEXT,
    CONSTRAINT "ChunkJudgment_judgmentId_fkey" FOREIGN KEY ("judgmentId") REFERENCES "JudgmentItem" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ChunkJudgment_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ChunkJudgment_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "JudgeCache" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "model" TEXT NOT NULL,
    "promptVersion" TEXT NOT NULL,
    "response" TEXT NOT NULL,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "Dataset_status_createdAt_idx" ON "Dataset"("status", "createdAt");

-- CreateIndex
CREATE INDEX "DatasetRow_datasetId_requestText_idx" ON "DatasetRow"("datasetId", "requestText");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetRow_datasetId_rowNumber_key" ON "DatasetRow"("datasetId", "rowNumber");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetRow_datasetId_requestId_key" ON "DatasetRow"("datasetId", "requestId");

-- CreateIndex
CREATE INDEX "ContextChunk_rowId_kind_docUri_idx" ON "ContextChunk"("rowId", "kind", "docUri");

-- CreateIndex
CREATE UNIQUE INDEX "ContextChunk_rowId_kind_position_key" ON "ContextChunk"("rowId", "kind", "position");

-- CreateIndex
CREATE INDEX "Run_datasetId_createdAt_idx" ON "Run"("datasetId", "createdAt");

-- CreateIndex
CREATE INDEX "Run_status_idx" ON "Run"("status");

-- CreateIndex
CREATE UNIQUE INDEX "CustomJudge_runId_assessmentName_key" ON "CustomJudge"("runId", "assessmentName");

-- CreateIndex
CREATE INDEX "Generation_runId_status_idx" ON "Generation"("runId", "status");

-- CreateIndex
CREATE INDEX "Generation_rowId_idx" ON "Generation"("rowId");

-- CreateIndex
CREATE UNIQUE INDEX "Generation_runId_rowId_key" ON "Generation"("runId", "rowId");

-- CreateIndex
CREATE INDEX "JudgmentItem_runId_metric_status_rating_idx" ON "JudgmentItem"("runId", "metric", "status", "rating");

-- CreateIndex
CREATE INDEX "JudgmentItem_runId_status_idx" ON "JudgmentItem"("runId", "status");

-- CreateIndex
CREATE INDEX "JudgmentItem_rowId_idx" ON "JudgmentItem"("rowId");

-- CreateIndex
CREATE UNIQUE INDEX "JudgmentItem_runId_rowId_metric_key" ON "JudgmentItem"("runId", "rowId", "metric");

-- CreateIndex
CREATE INDEX "ChunkJudgment_runId_metric_rating_idx" ON "ChunkJudgment"("runId", "metric", "rating");

-- CreateIndex
CREATE INDEX "ChunkJudgment_runId_rowId_idx" ON "ChunkJudgment"("runId", "rowId");

-- CreateIndex
CREATE INDEX "ChunkJudgment_rowId_idx" ON "ChunkJudgment"("rowId");

-- CreateIndex
CREATE UNIQUE INDEX "ChunkJudgment_judgmentId_position_key" ON "ChunkJudgment"("judgmentId", "position");
