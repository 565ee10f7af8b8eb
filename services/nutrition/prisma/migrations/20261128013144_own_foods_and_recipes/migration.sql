-- CreateTable
CREATE TABLE "custom_food" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "brand" TEXT,
    "per" TEXT NOT NULL,
    "serving_g" DOUBLE PRECISION,
    "kcal" DOUBLE PRECISION NOT NULL,
    "protein_g" DOUBLE PRECISION NOT NULL,
    "fat_g" DOUBLE PRECISION,
    "carbs_g" DOUBLE PRECISION,
    "fiber_g" DOUBLE PRECISION,
    "sugars_g" DOUBLE PRECISION,
    "sodium_mg" DOUBLE PRECISION,
    "measures" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "custom_food_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "recipe" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "servings" DOUBLE PRECISION NOT NULL,
    "cooked_weight_g" DOUBLE PRECISION,
    "kcal" DOUBLE PRECISION NOT NULL,
    "protein_g" DOUBLE PRECISION NOT NULL,
    "fat_g" DOUBLE PRECISION,
    "carbs_g" DOUBLE PRECISION,
    "fiber_g" DOUBLE PRECISION,
    "sugars_g" DOUBLE PRECISION,
    "sodium_mg" DOUBLE PRECISION,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "recipe_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "recipe_ingredient" (
    "recipe_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "food_id" TEXT NOT NULL,
    "portion" JSONB NOT NULL,
    "name" TEXT NOT NULL,
    "grams" DOUBLE PRECISION NOT NULL,
    "kcal" DOUBLE PRECISION NOT NULL,
    "protein_g" DOUBLE PRECISION NOT NULL,
    "fat_g" DOUBLE PRECISION,
    "carbs_g" DOUBLE PRECISION,
    "fiber_g" DOUBLE PRECISION,
    "sugars_g" DOUBLE PRECISION,
    "sodium_mg" DOUBLE PRECISION,

    CONSTRAINT "recipe_ingredient_pkey" PRIMARY KEY ("recipe_id","position")
);

-- CreateIndex
CREATE INDEX "custom_food_account_id_name_idx" ON "custom_food"("account_id", "name");

-- CreateIndex
CREATE INDEX "recipe_account_id_name_idx" ON "recipe"("account_id", "name");

-- CreateIndex
CREATE INDEX "recipe_ingredient_food_id_idx" ON "recipe_ingredient"("food_id");

-- AddForeignKey
ALTER TABLE "recipe_ingredient" ADD CONSTRAINT "recipe_ingredient_recipe_id_fkey" FOREIGN KEY ("recipe_id") REFERENCES "recipe"("id") ON DELETE CASCADE ON UPDATE CASCADE;
