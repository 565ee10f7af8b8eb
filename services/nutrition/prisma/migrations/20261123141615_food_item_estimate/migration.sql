-- AlterTable
ALTER TABLE "food_item" ADD COLUMN     "estimate_source" TEXT,
ADD COLUMN     "kcal_high" DOUBLE PRECISION,
ADD COLUMN     "kcal_low" DOUBLE PRECISION,
ADD COLUMN     "protein_high" DOUBLE PRECISION,
ADD COLUMN     "protein_low" DOUBLE PRECISION;
