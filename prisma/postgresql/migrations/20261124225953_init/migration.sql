-- CreateTable
CREATE TABLE "Dataset" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "sourceFilename" TEXT,
    "sourceFormat" TEXT,
    "status" TEXT NOT NULL DEFAULT 'importing',
    "rowCount" INTEGER NOT NULL DEFAULT 0,
    "warnings" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT,
    "importOwner" TEXT,
    "importHeartbeatAt" TIMESTAMP(3),

    CONSTRAINT "Dataset_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DatasetRow" (
    "id" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "rowNumber" INTEGER NOT NULL,
    "requestId" TEXT NOT NULL,
    "requestRaw" TEXT NOT NULL,
    "requestFormat" TEXT NOT NULL,
    "messages" TEXT NOT NULL,
    "requestText" TEXT NOT NULL,
    "response" TEXT,
    "responseHash" TEXT,
    "responseSource" TEXT,
    "expectedResponse" TEXT,
    "expectedFacts" TEXT,
    "trace" TEXT,
    "totalTokenCount" INTEGER,
    "inputTokenCount" INTEGER,
    "outputTokenCount" INTEGER,
    "latencySeconds" DOUBLE PRECISION,
    "hasResponse" BOOLEAN NOT NULL DEFAULT false,
    "hasExpectedResponse" BOOLEAN NOT NULL DEFAULT false,
    "hasExpectedFacts" BOOLEAN NOT NULL DEFAULT false,
    "hasRetrievedContext" BOOLEAN NOT NULL DEFAULT false,
    "hasRetrievedContent" BOOLEAN NOT NULL DEFAULT false,
    "hasExpectedRetrievedContext" BOOLEAN NOT NULL DEFAULT false,
    "hasTrace" BOOLEAN NOT NULL DEFAULT false,
    "retrievedChunkCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "DatasetRow_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ContextChunk" (
    "id" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "content" TEXT,
    "docUri" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'column',

    CONSTRAINT "ContextChunk_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tags" TEXT NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "errorMessage" TEXT,
    "pauseReason" TEXT,
    "budgetCalls" INTEGER,
    "budgetTokens" INTEGER,
    "budgetUsd" DOUBLE PRECISION,
    "judgeProvider" TEXT NOT NULL,
    "judgeModel" TEXT NOT NULL,
    "concurrency" INTEGER NOT NULL DEFAULT 8,
    "config" TEXT NOT NULL DEFAULT '{}',
    "generationModel" TEXT,
    "generationSystemPrompt" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "createdById" TEXT,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "workingMs" INTEGER NOT NULL DEFAULT 0,
    "rejudgeTotal" INTEGER,

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RunEvent" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "pendingJudgments" INTEGER,
    "worker" TEXT,

    CONSTRAINT "RunEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CustomJudge" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "assessmentName" TEXT NOT NULL,
    "assessmentType" TEXT NOT NULL,
    "instructions" TEXT NOT NULL,

    CONSTRAINT "CustomJudge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Generation" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "response" TEXT,
    "responseHash" TEXT,
    "errorMessage" TEXT,
    "model" TEXT NOT NULL,
    "inputTokenCount" INTEGER,
    "outputTokenCount" INTEGER,
    "latencySeconds" DOUBLE PRECISION,
    "attempts" INTEGER,
    "costUsd" DOUBLE PRECISION,
    "finishedAt" TIMESTAMP(3),
    "templateVersion" TEXT,
    "templateHash" TEXT,
    "promptHash" TEXT,
    "claimedBy" TEXT,
    "claimedAt" TIMESTAMP(3),

    CONSTRAINT "Generation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JudgmentItem" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "rating" TEXT,
    "score" DOUBLE PRECISION,
    "threshold" DOUBLE PRECISION,
    "passed" BOOLEAN,
    "rationale" TEXT,
    "errorMessage" TEXT,
    "skipReason" TEXT,
    "details" TEXT,
    "judgeProvider" TEXT,
    "judgeModel" TEXT,
    "promptVersion" TEXT,
    "promptHash" TEXT,
    "cacheHit" BOOLEAN NOT NULL DEFAULT false,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "costUsd" DOUBLE PRECISION,
    "latencyMs" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "claimedBy" TEXT,
    "claimedAt" TIMESTAMP(3),

    CONSTRAINT "JudgmentItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChunkJudgment" (
    "id" TEXT NOT NULL,
    "judgmentId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "rating" TEXT,
    "rationale" TEXT,
    "errorMessage" TEXT,

    CONSTRAINT "ChunkJudgment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JudgeCache" (
    "key" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "promptVersion" TEXT NOT NULL,
    "response" TEXT NOT NULL,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "JudgeCache_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "emailVerified" BOOLEAN NOT NULL DEFAULT false,
    "image" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "role" TEXT DEFAULT 'viewer',
    "banned" BOOLEAN DEFAULT false,
    "banReason" TEXT,
    "banExpires" TIMESTAMP(3),

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "token" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "ipAddress" TEXT,
    "userAgent" TEXT,
    "userId" TEXT NOT NULL,
    "impersonatedBy" TEXT,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Account" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "accessToken" TEXT,
    "refreshToken" TEXT,
    "idToken" TEXT,
    "accessTokenExpiresAt" TIMESTAMP(3),
    "refreshTokenExpiresAt" TIMESTAMP(3),
    "scope" TEXT,
    "password" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Verification" (
    "id" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Verification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SignInThrottle" (
    "email" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "failures" INTEGER NOT NULL,

    CONSTRAINT "SignInThrottle_pkey" PRIMARY KEY ("email")
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "updatedById" TEXT,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "HumanLabel" (
    "id" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "chunkPosition" INTEGER NOT NULL DEFAULT -1,
    "kind" TEXT NOT NULL,
    "rating" TEXT,
    "score" DOUBLE PRECISION,
    "labelledBy" TEXT,
    "statedBy" TEXT,
    "labelledAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "source" TEXT NOT NULL DEFAULT 'ui',
    "revision" INTEGER NOT NULL DEFAULT 1,
    "responseHash" TEXT,
    "hashPending" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "HumanLabel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HumanLabelRevision" (
    "id" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "chunkPosition" INTEGER NOT NULL DEFAULT -1,
    "revision" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "kind" TEXT,
    "rating" TEXT,
    "score" DOUBLE PRECISION,
    "labelledBy" TEXT,
    "statedBy" TEXT,
    "labelledAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "source" TEXT NOT NULL DEFAULT 'ui',
    "responseHash" TEXT,
    "runId" TEXT,

    CONSTRAINT "HumanLabelRevision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LabelImportStaging" (
    "importId" TEXT NOT NULL,
    "fileRow" INTEGER NOT NULL,
    "fileLine" INTEGER NOT NULL,
    "rowId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "chunkPosition" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "rating" TEXT,
    "score" DOUBLE PRECISION,
    "labelledBy" TEXT,
    "statedBy" TEXT,
    "unchanged" BOOLEAN NOT NULL DEFAULT false,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LabelImportStaging_pkey" PRIMARY KEY ("importId","fileRow")
);

-- CreateTable
CREATE TABLE "Worker" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "version" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" TIMESTAMP(3) NOT NULL,
    "stoppedAt" TIMESTAMP(3),
    "runId" TEXT,
    "inFlight" INTEGER NOT NULL DEFAULT 0,
    "completed" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Worker_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InFlightSlot" (
    "endpoint" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "holder" TEXT,
    "heldAt" TIMESTAMP(3),

    CONSTRAINT "InFlightSlot_pkey" PRIMARY KEY ("endpoint","slot")
);

-- CreateTable
CREATE TABLE "RunWorkerSpending" (
    "runId" TEXT NOT NULL,
    "workerId" TEXT NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "heldCalls" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RunWorkerSpending_pkey" PRIMARY KEY ("runId","workerId")
);

-- CreateIndex
CREATE INDEX "Dataset_status_createdAt_idx" ON "Dataset"("status", "createdAt");

-- CreateIndex
CREATE INDEX "DatasetRow_response_hash_idx" ON "DatasetRow"("id", "responseHash");

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
CREATE INDEX "RunEvent_runId_at_idx" ON "RunEvent"("runId", "at");

-- CreateIndex
CREATE UNIQUE INDEX "CustomJudge_runId_assessmentName_key" ON "CustomJudge"("runId", "assessmentName");

-- CreateIndex
CREATE INDEX "Generation_response_hash_idx" ON "Generation"("runId", "rowId", "responseHash");

-- CreateIndex
CREATE INDEX "Generation_runId_status_id_idx" ON "Generation"("runId", "status", "id");

-- CreateIndex
CREATE INDEX "Generation_claimedBy_idx" ON "Generation"("claimedBy");

-- CreateIndex
CREATE INDEX "Generation_runId_templateVersion_templateHash_idx" ON "Generation"("runId", "templateVersion", "templateHash");

-- CreateIndex
CREATE INDEX "Generation_rowId_idx" ON "Generation"("rowId");

-- CreateIndex
CREATE UNIQUE INDEX "Generation_runId_rowId_key" ON "Generation"("runId", "rowId");

-- CreateIndex
CREATE INDEX "JudgmentItem_metric_summary_idx" ON "JudgmentItem"("runId", "metric", "status", "rating", "score", "passed", "cacheHit", "inputTokens", "outputTokens", "costUsd");

-- CreateIndex
CREATE INDEX "JudgmentItem_runId_status_id_idx" ON "JudgmentItem"("runId", "status", "id");

-- CreateIndex
CREATE INDEX "JudgmentItem_claimedBy_idx" ON "JudgmentItem"("claimedBy");

-- CreateIndex
CREATE INDEX "JudgmentItem_rowId_idx" ON "JudgmentItem"("rowId");

-- CreateIndex
CREATE INDEX "JudgmentItem_pairing_idx" ON "JudgmentItem"("runId", "rowId", "metric", "status", "rating", "score", "passed");

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

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Session_token_key" ON "Session"("token");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE INDEX "Account_userId_idx" ON "Account"("userId");

-- CreateIndex
CREATE INDEX "Verification_identifier_idx" ON "Verification"("identifier");

-- CreateIndex
CREATE INDEX "HumanLabel_datasetId_metric_chunkPosition_rowId_kind_rating_idx" ON "HumanLabel"("datasetId", "metric", "chunkPosition", "rowId", "kind", "rating", "score", "responseHash");

-- CreateIndex
CREATE UNIQUE INDEX "HumanLabel_rowId_metric_chunkPosition_key" ON "HumanLabel"("rowId", "metric", "chunkPosition");

-- CreateIndex
CREATE INDEX "HumanLabelRevision_datasetId_labelledAt_idx" ON "HumanLabelRevision"("datasetId", "labelledAt");

-- CreateIndex
CREATE UNIQUE INDEX "HumanLabelRevision_rowId_metric_chunkPosition_revision_key" ON "HumanLabelRevision"("rowId", "metric", "chunkPosition", "revision");

-- CreateIndex
CREATE INDEX "LabelImportStaging_createdAt_idx" ON "LabelImportStaging"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "LabelImportStaging_importId_rowId_metric_chunkPosition_key" ON "LabelImportStaging"("importId", "rowId", "metric", "chunkPosition");

-- CreateIndex
CREATE INDEX "Worker_heartbeatAt_idx" ON "Worker"("heartbeatAt");

-- CreateIndex
CREATE INDEX "InFlightSlot_holder_idx" ON "InFlightSlot"("holder");

-- AddForeignKey
ALTER TABLE "DatasetRow" ADD CONSTRAINT "DatasetRow_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ContextChunk" ADD CONSTRAINT "ContextChunk_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunEvent" ADD CONSTRAINT "RunEvent_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CustomJudge" ADD CONSTRAINT "CustomJudge_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Generation" ADD CONSTRAINT "Generation_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Generation" ADD CONSTRAINT "Generation_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgmentItem" ADD CONSTRAINT "JudgmentItem_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgmentItem" ADD CONSTRAINT "JudgmentItem_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChunkJudgment" ADD CONSTRAINT "ChunkJudgment_judgmentId_fkey" FOREIGN KEY ("judgmentId") REFERENCES "JudgmentItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChunkJudgment" ADD CONSTRAINT "ChunkJudgment_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChunkJudgment" ADD CONSTRAINT "ChunkJudgment_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Account" ADD CONSTRAINT "Account_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HumanLabel" ADD CONSTRAINT "HumanLabel_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HumanLabelRevision" ADD CONSTRAINT "HumanLabelRevision_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunWorkerSpending" ADD CONSTRAINT "RunWorkerSpending_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
