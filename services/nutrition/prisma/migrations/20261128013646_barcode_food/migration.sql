-- CreateTable
CREATE TABLE "barcode_food" (
    "gtin" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kcal" DOUBLE PRECISION,
    "protein_g" DOUBLE PRECISION,
    "fat_g" DOUBLE PRECISION,
    "carbs_g" DOUBLE PRECISION,
    "fiber_g" DOUBLE PRECISION,
    "sugars_g" DOUBLE PRECISION,
    "sodium_mg" DOUBLE PRECISION,
    "serving_size" TEXT,
    "serving_g" DOUBLE PRECISION,
    "fetched_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "barcode_food_pkey" PRIMARY KEY ("gtin")
);
