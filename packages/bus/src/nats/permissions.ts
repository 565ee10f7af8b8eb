import { allEndpoints, busAccess, streamEventsOf, type BusAccess, type BusUser } from "@fit/contracts";

/** A NATS user's permissions, as the server's `authorization { users = [...] }` block takes them. */
interface NatsPermissions {
  publish: { allow: string[] };
  subscribe: { allow: string[] };
  /** Lets a responder publish to the reply subject of a question it received, and nowhere else by it. */
  allow_responses?: boolean;
}

/**
 * Each service's replies come back on inboxes only it may subscribe to: with the shared `_INBOX.>` any user could
 * read every answer to everyone (an account export included).
 */
export const inboxPrefixOf = (service: BusUser) => `_INBOX_${service.replace(/-/g, "_")}`;

const JS = "$JS.API";

/**
 * The subjects one service may publish and subscribe to, from its BusAccess and the endpoints it answers:
 * its own questions and answers, its events, the JetStream API for its own streams, durables and buckets
 * (named one by one: Debian's nats-server 2.9 matches whole tokens only), and its own inbox. Whoever publishes to
 * a stream may update it; a consumer may only create a missing one, with the subjects it consumes.
 */
const natsPermissions = (service: BusUser): NatsPermissions => {
  const access: BusAccess = busAccess[service];
  const serves = allEndpoints.filter((e) => e.service === service).map((e) => e.subject);
  const published = new Set(access.publishes.map((e) => e.stream));
  const streams = [...new Set(streamEventsOf(service).map((e) => e.stream))];
  const publish = [
    ...access.asks.map((e) => e.subject),
    ...access.publishes.map((e) => e.subject),
    ...access.broadcasts,
    `${JS}.INFO`,
    ...streams.flatMap((s) => [`${JS}.STREAM.INFO.${s}`, `${JS}.STREAM.CREATE.${s}`, ...(published.has(s) ? [`${JS}.STREAM.UPDATE.${s}`] : [])]),
    ...access.consumes.flatMap(({ event: { stream, subject }, durable }) => [
      `${JS}.CONSUMER.INFO.${stream}.${durable}`,
      `${JS}.CONSUMER.CREATE.${stream}.${durable}.${subject}`,
      `${JS}.CONSUMER.MSG.NEXT.${stream}.${durable}`,
      `$JS.ACK.${stream}.${durable}.>`,
    ]),
    ...access.buckets.flatMap((b) => [
      `${JS}.STREAM.INFO.KV_${b}`,
      `${JS}.STREAM.CREATE.KV_${b}`,
      `${JS}.STREAM.UPDATE.KV_${b}`,
      `${JS}.STREAM.MSG.GET.KV_${b}`,
      `${JS}.DIRECT.GET.KV_${b}.>`,
      `$KV.${b}.>`,
    ]),
  ];
  const subscribe = [`${inboxPrefixOf(service)}.>`, ...serves, ...access.broadcasts];
  return {
    publish: { allow: [...new Set(publish)] },
    subscribe: { allow: [...new Set(subscribe)] },
    ...(serves.length > 0 ? { allow_responses: true } : {}),
  };
};

/** The environment variable the NATS server reads a service's password from (the server config names it). */
export const natsPasswordVariable = (service: BusUser) => `NATS_PASSWORD_${service.replace(/-/g, "_").toUpperCase()}`;

/**
 * The server's authorization file, its `authorization` block: one user per service, named as the service, its password from the server's
 * environment (never written in the file), its permissions from natsPermissions.
 */
export const natsAuthorization = (): string => {
  const users = (Object.keys(busAccess) as BusUser[]).map((service) => {
    const p = natsPermissions(service);
    const list = (subjects: string[]) => subjects.map((s) => JSON.stringify(s)).join(", ");
    return [
      `    {`,
      `      user: ${JSON.stringify(service)}`,
      `      password: $${natsPasswordVariable(service)}`,
      `      permissions: {`,
      `        publish: { allow: [${list(p.publish.allow)}] }`,
      `        subscribe: { allow: [${list(p.subscribe.allow)}] }`,
      ...(p.allow_responses ? [`        allow_responses: true`] : []),
      `      }`,
      `    }`,
    ].join("\n");
  });
  return (
    "# Written by infra/nats/write-authorization.ts from packages/contracts/src/bus-access.ts: do not edit, run\n" +
    "# `pnpm nats:authorization`. Each password comes from the server's environment (NATS_PASSWORD_<SERVICE>).\n" +
    `authorization {\n  users: [\n${users.join("\n")}\n  ]\n}\n`
  );
};
