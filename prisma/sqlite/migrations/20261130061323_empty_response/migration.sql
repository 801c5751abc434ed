-- AlterTable (added in place: redefining DatasetRow would copy every row and its trace)
ALTER TABLE "DatasetRow" ADD COLUMN "hasEmptyResponse" BOOLEAN NOT NULL DEFAULT false;
