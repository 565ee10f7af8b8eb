-- AlterTable
ALTER TABLE "import" ADD COLUMN     "kinds" JSONB NOT NULL DEFAULT '{}';
