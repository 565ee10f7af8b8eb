-- CreateTable
CREATE TABLE "import" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "file_name" TEXT,
    "bytes" BIGINT NOT NULL,
    "state" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "options" JSONB NOT NULL,
    "format" JSONB NOT NULL,
    "step" INTEGER NOT NULL DEFAULT 0,
    "offset" BIGINT NOT NULL DEFAULT 0,
    "line" INTEGER NOT NULL DEFAULT 1,
    "read" INTEGER NOT NULL DEFAULT 0,
    "created" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "refused" INTEGER NOT NULL DEFAULT 0,
    "refusals" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "import_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "import_chunk" (
    "import_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "import_chunk_pkey" PRIMARY KEY ("import_id","seq")
);

-- CreateTable
CREATE TABLE "import_row" (
    "import_id" UUID NOT NULL,
    "row_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,

    CONSTRAINT "import_row_pkey" PRIMARY KEY ("import_id","row_id")
);

-- CreateTable
CREATE TABLE "outbox_event" (
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "headers" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "claimed_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "import_account_id_created_at_idx" ON "import"("account_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "outbox_event_pending_idx" ON "outbox_event"("created_at", "id") WHERE (sent_at IS NULL);

-- CreateIndex
CREATE INDEX "outbox_event_sent_idx" ON "outbox_event"("sent_at") WHERE (sent_at IS NOT NULL);
