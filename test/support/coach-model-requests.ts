import type { ChatRequest, FakeBehaviour } from "@fit/testing";

interface FoodNumbers {
  name: string;
  kcal: number;
  kcalRange: { low: number; high: number };
  proteinG: number;
  proteinRange: { low: number; high: number };
  source: string;
}

/** The part of the coach's `<data>` message the tests read. */
interface DataBlock {
  date: string;
  targets: { dailyKcalTarget: number | null; proteinTargetG: number | null } | null;
  weight: { latestKg: number; note: string | null } | null;
  intake: { kcal: number; proteinG: number; items: { name: string; kcal: number; proteinG: number }[] } | null;
  unavailable: string[];
  estimate: FoodNumbers[];
}

const DATA_OPEN = "<data>\n";
const DATA_CLOSE = "\n</data>\n";

/** Which coach call a model request is: the structured ones name their JSON schema ("foods", "workout"). */
export const requestKind = (request: ChatRequest): string =>
  (request.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ?? "chat";

/** The coach's data message of a chat request (the one that starts with `<data>`), or undefined. */
export const dataMessage = (request: ChatRequest) =>
  request.messages.find((m): m is { role: string; content: string } => m.role === "system" && typeof m.content === "string" && m.content.startsWith(DATA_OPEN));

/** The JSON inside the data message; throws when the request has none, so a test cannot pass on its absence. */
export const dataOf = (request: ChatRequest): DataBlock => {
  const message = dataMessage(request);
  if (!message) throw new Error("the model request carries no <data> message");
  return JSON.parse(message.content.slice(DATA_OPEN.length, message.content.indexOf(DATA_CLOSE))) as DataBlock;
};

/** A foods answer whose numbers change with every call: two equal estimates can only come from the coach's cache. */
const foodsAnswer = (call: number) => {
  const kcal = 480 + 10 * call;
  const proteinG = 20 + call;
  return {
    items: [{ name: "pizza", quantity: 2, unit: "slice", grams: 220, kcal, kcalLow: kcal - 90, kcalHigh: kcal + 120, proteinG, proteinLow: proteinG - 4, proteinHigh: proteinG + 5 }],
    unrecognized: [],
  };
};

const runWorkout = {
  activityType: "run",
  summary: "5 km run",
  durationS: 1800,
  distanceM: 5000,
  elevationGainM: null,
  energyKcal: null,
  avgHr: null,
  maxHr: null,
  avgPowerW: null,
  avgCadence: null,
  exercises: [],
  when: { dayOffset: 0, minuteOfDay: 420 },
};

/** A fake model's fallback that answers each coach call in its format; `chat` decides the plain-text replies. */
export const modelAnswers = (chat: (request: ChatRequest) => FakeBehaviour) => {
  let foodsCalls = 0;
  return (request: ChatRequest): FakeBehaviour => {
    const kind = requestKind(request);
    if (kind === "foods") return { reply: JSON.stringify(foodsAnswer(++foodsCalls)) };
    if (kind === "workout") return { reply: JSON.stringify(runWorkout) };
    return chat(request);
  };
};
