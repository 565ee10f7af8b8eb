-- The server fetches no URL a client registers (docs/decisions/0059-oauth-plugin-corrected-at-the-edge.md):
-- clients registered before registration refused them lose theirs, and none can be stored again.
UPDATE "oauth_client"
SET "backchannel_logout_uri" = NULL, "backchannel_logout_session_required" = NULL, "jwks_uri" = NULL
WHERE "backchannel_logout_uri" IS NOT NULL OR "jwks_uri" IS NOT NULL;

ALTER TABLE "oauth_client" ADD CONSTRAINT "oauth_client_fetches_no_url" CHECK ("backchannel_logout_uri" IS NULL AND "jwks_uri" IS NULL);
