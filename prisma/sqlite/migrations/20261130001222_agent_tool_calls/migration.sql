-- CreateTable
CREATE TABLE "ToolCall" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "rowId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "arguments" TEXT,
    "output" TEXT,
    "error" TEXT,
    "startMs" REAL,
    "durationMs" REAL,
    "spanId" TEXT,
    CONSTRAINT "ToolCall_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable (columns added in place: redefining DatasetRow would copy every row and its trace)
ALTER TABLE "DatasetRow" ADD COLUMN "hasToolCalls" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "DatasetRow" ADD COLUMN "hasExpectedToolCalls" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "DatasetRow" ADD COLUMN "toolCallCount" INTEGER;
ALTER TABLE "DatasetRow" ADD COLUMN "toolCallsSource" TEXT;
ALTER TABLE "DatasetRow" ADD COLUMN "availableTools" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "ToolCall_rowId_kind_position_key" ON "ToolCall"("rowId", "kind", "position");
