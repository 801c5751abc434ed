-- AlterTable
ALTER TABLE "DatasetRow" ADD COLUMN     "hasEmptyResponse" BOOLEAN NOT NULL DEFAULT false;
