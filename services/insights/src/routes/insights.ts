import { AppError, bodyMetricsBus, operations } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import { firstDayRead, insightsOf, todayIn } from "../domain/insights.ts";
import { ensureBackfilled } from "../handlers/sources.ts";
import type { Store } from "../store/store.ts";

const TARGETS_TIMEOUT_MS = 5000;
const DAY_MS = 86_400_000;

/** The insights of an account as of `date` (default its local today): the read model, and the goal from body-metrics. */
const insightsFor = async (bus: Bus, store: Store, accountId: string, date?: string) => {
  await ensureBackfilled(bus, store, accountId);
  const profile = await store.getProfile(accountId);
  const asOf = date ?? todayIn(profile.timeZone);
  const from = firstDayRead(asOf);
  // A day more on both sides: a local day is up to 14 hours off its UTC day.
  const [readings, intake, { targets }] = await Promise.all([
    store.readingsSince(accountId, Date.parse(`${from}T00:00:00Z`) - DAY_MS),
    store.intakeSince(accountId, from),
    bus.request(bodyMetricsBus.overview, { accountId, date: asOf }, { timeoutMs: TARGETS_TIMEOUT_MS }),
  ]);
  return insightsOf({ asOf, profile, readings: readings.filter((r) => r.ts < Date.parse(`${asOf}T00:00:00Z`) + 2 * DAY_MS), intake, targets });
};

export const insightsRoutes = ({ app, store, bus }: ServiceContext<Store>) => {
  serveOperation(app, operations.getInsights, ({ query, caller }) => insightsFor(bus, store, caller.accountId, query.date));

  serveOperation(app, operations.adoptSuggestedTargets, async ({ caller }) => {
    const { suggestedTargets } = await insightsFor(bus, store, caller.accountId);
    if (!suggestedTargets) throw new AppError("unprocessable", "there is no suggestion yet: it needs a goal weight (PUT /api/targets) and a weigh-in");
    return bus.request(
      bodyMetricsBus.setDailyTargets,
      { accountId: caller.accountId, dailyKcalTarget: suggestedTargets.dailyKcal, proteinTargetG: suggestedTargets.dailyProteinG },
      { timeoutMs: TARGETS_TIMEOUT_MS },
    );
  });
};
