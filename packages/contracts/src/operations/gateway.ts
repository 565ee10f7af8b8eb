// The HTTP operations of what the gateway answers itself: the coach, the dashboard, credentials, scale ingest and the account.
import { AccountExport } from "../account.ts";
import { Ack, IdParams } from "../common.ts";
import { WeightIngest } from "../body-metrics.ts";
import { AgentQuery, AgentReply, AgentRequest, CoachUsage } from "../coach.ts";
import {
  ApiKeyCreate, ApiKeyCreated, ApiKeyList, ClientIdParams, ConnectedAppList, RevokedCount, RevokeOthersQuery, SessionList,
} from "../credentials.ts";
import { Dashboard, DashboardQuery } from "../dashboard.ts";
import { define, modelErrors, type Operation } from "./operation.ts";

export const gatewayOperations = {
  askCoach: define({
    id: "askCoach", method: "POST", path: "/api/agent", service: "gateway", tag: "Coach", scope: "coach",
    summary: "Ask the coach",
    description: "Grounded in the caller's targets, the day's logged kcal and protein, and the latest weight and weekly " +
      "trend. The server keeps no conversation: send the whole history (1 to 20 messages) each turn. Query and body " +
      "`date` mean the same; both sent and different is a 400. When a data source does not answer in time the coach " +
      "still replies and says what it could not read. Without a language model configured, the built-in estimator answers.",
    query: AgentQuery, body: AgentRequest, response: AgentReply, errors: modelErrors,
  }),
  coachUsage: define({
    id: "coachUsage", method: "GET", path: "/api/coach/usage", service: "gateway", tag: "Coach", scope: "coach",
    summary: "The caller's coach usage today", description: "Calls and model tokens used since 00:00 UTC, and the daily limits.",
    response: CoachUsage, errors: [503, 504],
  }),
  getDashboard: define({
    id: "getDashboard", method: "GET", path: "/api/dashboard", service: "gateway", tag: "Dashboard",
    scope: "dashboard:read", summary: "Home-screen snapshot",
    description: "Weight summary, targets, latest measurements, shoulder-to-waist ratio, the day's nutrition and the " +
      "totals of the week's workouts (ISO week of `date`, UTC). " +
      "503 when a service does not answer in time (no partial snapshot: a blank tile would read as 'nothing logged').",
    query: DashboardQuery, response: Dashboard, errors: [400, 503],
  }),
  createApiKey: define({
    id: "createApiKey", method: "POST", path: "/api/keys", service: "gateway", tag: "API keys", scope: "keys",
    summary: "Create an API key",
    description: "Answers the key once (`key`); only its hash is stored. A key never gets a scope the calling credential " +
      "lacks (403): a session may grant any; a key needs the `keys` scope and holds only what it was granted. Omitted " +
      "`scopes` (every data scope) needs a caller with every data scope. `keys` and `account` are held only when named, " +
      "and a session may grant them only when signed in within the last 10 minutes (403: sign in again), as deleting the " +
      "account asks. A key never outlives the key that makes it: when the calling key expires, the new key's expiry is " +
      "cut to the caller's (an omitted or longer `expiresInDays` included; `expiresAt` in the answer says when). A key " +
      "made by a session may live as long as asked.",
    body: ApiKeyCreate, response: ApiKeyCreated, errors: [400, 413, 415],
  }),
  listApiKeys: define({
    id: "listApiKeys", method: "GET", path: "/api/keys", service: "gateway", tag: "API keys", scope: "keys",
    summary: "List the account's API keys",
    description: "Newest first; never the key nor its hash. `lastUsedAt` is recorded at most once a minute per key, so " +
      "it may lag a minute behind the last request.",
    response: ApiKeyList, errors: [],
  }),
  revokeApiKey: define({
    id: "revokeApiKey", method: "DELETE", path: "/api/keys/:id", service: "gateway", tag: "API keys", scope: "keys",
    summary: "Revoke an API key", description: "Deleted at once: its next request, on any gateway, is a 401.",
    params: IdParams, response: Ack, errors: [400, 404],
  }),
  listSessions: define({
    id: "listSessions", method: "GET", path: "/api/sessions", service: "gateway", tag: "Sessions", scope: "account",
    credential: "session", summary: "List the account's signed-in sessions",
    description: "Unexpired sessions, newest first; `current` marks the one making this request. Session cookie only: " +
      "an API key or agent token gets 403.",
    response: SessionList, errors: [],
  }),
  revokeSession: define({
    id: "revokeSession", method: "DELETE", path: "/api/sessions/:id", service: "gateway", tag: "Sessions", scope: "account",
    credential: "session", summary: "Revoke a session",
    description: "Signs that session out at once: its next request, on any gateway, is a 401. Session cookie only.",
    params: IdParams, response: Ack, errors: [400, 404],
  }),
  revokeOtherSessions: define({
    id: "revokeOtherSessions", method: "POST", path: "/api/sessions/revoke-others", service: "gateway", tag: "Sessions",
    scope: "account", credential: "session", summary: "Revoke every session but this one",
    description: "Signs out every other device at once. Session cookie only. Connected apps (agents) keep working unless " +
      "`connectedApps=revoke` is given: then every app's grant ends too, as DELETE /api/connected-apps/{clientId} ends one.",
    query: RevokeOthersQuery, response: RevokedCount, errors: [400],
  }),
  listConnectedApps: define({
    id: "listConnectedApps", method: "GET", path: "/api/connected-apps", service: "gateway", tag: "Connected apps", scope: "keys",
    summary: "List the agents the account let in",
    description: "One item per OAuth client holding a grant of the account (a consent, or a live refresh token), most recently " +
      "used first. `lastUsedAt` is its last token issue with a refresh token (authorization with `offline_access`, or a refresh), " +
      "read from the authorization server's own records; null when it holds no refresh token. Like key management: a session, " +
      "or a key granted `keys`; an agent's token never holds `keys` (403).",
    response: ConnectedAppList, errors: [],
  }),
  revokeConnectedApp: define({
    id: "revokeConnectedApp", method: "DELETE", path: "/api/connected-apps/:clientId", service: "gateway", tag: "Connected apps",
    scope: "keys", summary: "Revoke a connected app",
    description: "Ends the app's consent and every access and refresh token of the account for it at once: their next request, " +
      "on any gateway, is a 401, and a refresh is `invalid_grant`. To connect again the app must ask for consent again. 404 when " +
      "the account has no grant for that client (another account's, or an unknown id).",
    params: ClientIdParams, response: Ack, errors: [400, 404],
  }),
  ingestWeight: define({
    id: "ingestWeight", method: "POST", path: "/api/ingest/weight", service: "gateway", tag: "Weight", scope: "weight:write",
    credential: "ingest-token", summary: "Scale ingest: log a weigh-in for an account by email",
    description: "Only `Authorization: Bearer <INGEST_TOKEN>` (the token is refused with 403 on every other route). 404 " +
      "when no token is configured, or when the email is not an account. A repeat of (email, externalId), or without " +
      "externalId of (email, ts), is acknowledged and stored once (the first reading wins). Stored with source `scale`; " +
      "rate-limited per account like the API.",
    body: WeightIngest, response: Ack, errors: [400, 404, 413, 415, 503],
  }),
  exportAccount: define({
    id: "exportAccount", method: "GET", path: "/api/account/export", service: "gateway", tag: "Account", scope: "account",
    summary: "Download everything stored about the account",
    description: "One JSON document (`Content-Disposition: attachment`): the account, its API keys' metadata (never a " +
      "key), weigh-ins, measurements, targets, the profile, food items, daily totals, own foods and recipes, workouts and coach usage. It is streamed as " +
      "each service's part arrives: a service that fails midway cuts the connection, so an incomplete download never " +
      "parses as a whole document. Needs the `account` scope: a session holds it, a key only when granted by name.",
    response: AccountExport, errors: [503, 504], attachment: "fitness-export.json",
  }),
  deleteAccount: define({
    id: "deleteAccount", method: "DELETE", path: "/api/account", service: "gateway", tag: "Account", scope: "account",
    summary: "Delete the account and everything stored about it",
    description: "Confirmed by a session signed in within the last 10 minutes (an older one is a 403: sign in again) " +
      "or by an API key granted the `account` scope. The account, its sessions and keys are gone when this answers: " +
      "the next request with any of them is a 401. Every service then deletes the account's data on its own, within " +
      "moments (asynchronous, hence 202); nothing can be recovered.",
    response: Ack, status: 202, errors: [503],
  }),
} satisfies Record<string, Operation>;
