-- AlterTable
ALTER TABLE "CustomJudge" ADD COLUMN     "basedOn" TEXT;

-- AlterTable
ALTER TABLE "JudgeAlignment" ADD COLUMN     "costUsd" DOUBLE PRECISION,
ADD COLUMN     "definition" TEXT NOT NULL DEFAULT '{}',
ADD COLUMN     "errorMessage" TEXT,
ADD COLUMN     "heartbeatAt" TIMESTAMP(3),
ADD COLUMN     "inputTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "judgeModel" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "judgeName" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "llmCalls" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "outputTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "progressDone" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "progressTotal" INTEGER NOT NULL DEFAULT 0,
ALTER COLUMN "status" SET DEFAULT 'measuring';
