import { operations } from "@fit/contracts";
import { serveOperation, type HttpApp } from "@fit/service-kit";
import { replaceTargets } from "../domain/targets.ts";
import type { ServiceContext } from "@fit/service-kit";
import type { Store } from "../store/store.ts";

type RouteDeps = Pick<ServiceContext<Store>, "store" | "relay">;

export const targetRoutes = (app: HttpApp, { store, relay }: RouteDeps) => {
  serveOperation(app, operations.getTargets, ({ caller }) => store.getTargets(caller.accountId));

  serveOperation(app, operations.putTargets, async ({ body, caller }) => {
    const targets = await store.replaceTargets(caller.accountId, replaceTargets(body));
    relay.kick();
    return targets;
  });
};
