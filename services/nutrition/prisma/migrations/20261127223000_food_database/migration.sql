-- The food database (docs/decisions/0063-food-database.md): reference foods per 100 g with their household
-- portions, and the words of their descriptions that search matches typed words against. The rows are loaded
-- after the migrations by the service itself (loadFoods), by the data file's version.

-- Trigram similarity for typo-tolerant search; installed in the service's own schema (first on search_path).
-- On PostgreSQL under per-service roles the database owner installs it first (infra/postgres/create-roles.sh).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateTable
CREATE TABLE "food" (
    "id" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "kcal" DOUBLE PRECISION,
    "protein_g" DOUBLE PRECISION,
    "fat_g" DOUBLE PRECISION,
    "carbs_g" DOUBLE PRECISION,
    "fiber_g" DOUBLE PRECISION,
    "sugars_g" DOUBLE PRECISION,
    "sodium_mg" DOUBLE PRECISION,
    "caveat" TEXT,

    CONSTRAINT "food_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "food_portion" (
    "food_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "amount" DOUBLE PRECISION NOT NULL,
    "unit" TEXT NOT NULL,
    "gram_weight" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "food_portion_pkey" PRIMARY KEY ("food_id","seq")
);

-- CreateTable
CREATE TABLE "food_term" (
    "word" TEXT NOT NULL,
    "food_id" TEXT NOT NULL,
    "in_head" BOOLEAN NOT NULL,
    "head_words" INTEGER NOT NULL,
    "rank_bias" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "food_term_pkey" PRIMARY KEY ("word","food_id")
);

-- CreateTable
CREATE TABLE "food_word" (
    "word" TEXT NOT NULL,

    CONSTRAINT "food_word_pkey" PRIMARY KEY ("word")
);

-- CreateTable
CREATE TABLE "food_data" (
    "source" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "loaded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "food_data_pkey" PRIMARY KEY ("source")
);

-- CreateIndex
CREATE INDEX "food_word_word_trgm_idx" ON "food_word" USING GIST ("word" gist_trgm_ops);

-- AlterTable
ALTER TABLE "food_item" ADD COLUMN     "fiber_g" DOUBLE PRECISION,
ADD COLUMN     "grams" DOUBLE PRECISION,
ADD COLUMN     "source" TEXT;
