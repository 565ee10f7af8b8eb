-- AlterTable
ALTER TABLE "import" ADD COLUMN     "inflated" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "import_chunk" DROP CONSTRAINT "import_chunk_pkey",
ADD COLUMN     "inflated" BOOLEAN NOT NULL DEFAULT false,
ADD CONSTRAINT "import_chunk_pkey" PRIMARY KEY ("import_id", "inflated", "seq");
