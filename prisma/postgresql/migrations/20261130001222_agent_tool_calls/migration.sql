-- AlterTable
ALTER TABLE "DatasetRow" ADD COLUMN     "availableTools" TEXT,
ADD COLUMN     "hasExpectedToolCalls" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "hasToolCalls" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "toolCallCount" INTEGER,
ADD COLUMN     "toolCallsSource" TEXT;

-- CreateTable
CREATE TABLE "ToolCall" (
    "id" TEXT NOT NULL,
    "rowId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "arguments" TEXT,
    "output" TEXT,
    "error" TEXT,
    "startMs" DOUBLE PRECISION,
    "durationMs" DOUBLE PRECISION,
    "spanId" TEXT,

    CONSTRAINT "ToolCall_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ToolCall_rowId_kind_position_key" ON "ToolCall"("rowId", "kind", "position");

-- AddForeignKey
ALTER TABLE "ToolCall" ADD CONSTRAINT "ToolCall_rowId_fkey" FOREIGN KEY ("rowId") REFERENCES "DatasetRow"("id") ON DELETE CASCADE ON UPDATE CASCADE;
