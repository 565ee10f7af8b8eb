-- CreateTable
CREATE TABLE "oauth_grant_revocation" (
    "user_id" UUID NOT NULL,
    "client_id" TEXT NOT NULL,
    "revoked_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "oauth_grant_revocation_pkey" PRIMARY KEY ("user_id","client_id")
);

-- CreateIndex
CREATE INDEX "oauth_grant_revocation_revoked_at_idx" ON "oauth_grant_revocation"("revoked_at");

-- AddForeignKey
ALTER TABLE "oauth_grant_revocation" ADD CONSTRAINT "oauth_grant_revocation_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
