import { operations } from "@fit/contracts";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import { profileOf } from "../domain/profile.ts";
import type { Store } from "../store/store.ts";

export const profileRoutes = ({ app, store }: ServiceContext<Store>) => {
  serveOperation(app, operations.getProfile, ({ caller }) => store.getProfile(caller.accountId));

  serveOperation(app, operations.putProfile, ({ body, caller }) => store.replaceProfile(caller.accountId, profileOf(body)));
};
