#!/bin/sh
# Stands in for the schema-engine binary the Prisma CLI would download: `prisma generate` only checks that it exists.
echo "The Prisma schema-engine binary is not used in this repository: migrations run through @fit/db (WASM): node --import tsx packages/db/src/cli.ts new|deploy --service services/<name>" >&2
exit 1
