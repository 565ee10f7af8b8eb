-- CreateTable
CREATE TABLE "daily_usage" (
    "account_id" UUID NOT NULL,
    "day" VARCHAR(10) NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "daily_usage_pkey" PRIMARY KEY ("account_id","day")
);

-- CreateTable
CREATE TABLE "estimate_cache" (
    "account_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "estimate_cache_pkey" PRIMARY KEY ("account_id","key")
);

-- CreateIndex
CREATE INDEX "estimate_cache_created_at_idx" ON "estimate_cache"("created_at");
