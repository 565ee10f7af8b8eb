import { operations } from "@fit/contracts";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import { replaceTargets } from "../domain/targets.ts";
import type { Store } from "../store/store.ts";

export const targetRoutes = ({ app, store, relay }: ServiceContext<Store>) => {
  serveOperation(app, operations.getTargets, ({ caller }) => store.getTargets(caller.accountId));

  serveOperation(app, operations.putTargets, async ({ body, caller }) => {
    const targets = await store.replaceTargets(caller.accountId, replaceTargets(body));
    relay.kick();
    return targets;
  });
};
