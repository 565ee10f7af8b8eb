// Writes infra/nats/authorization.conf (`pnpm nats:authorization`): the NATS server's users and their permissions,
// from each service's bus access in packages/contracts. infra/test/unit/nats-authorization.test.ts fails when the
// file is not what this writes.
import { writeFileSync } from "node:fs";
import { natsAuthorization } from "@fit/bus";

writeFileSync(new URL("authorization.conf", import.meta.url), natsAuthorization());
