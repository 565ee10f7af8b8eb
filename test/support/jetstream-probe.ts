// The test's own JetStream connection, beside the service's: to publish what the service never would (a copy of
// an event under another Nats-Msg-Id) and to read the state of its durable consumers (what is delivered, what
// is still unacknowledged).
import { connect, nanos } from "nats";

export const connectJetStream = async (url: string) => {
  // Reconnects for as long as it takes: fault tests stop and start this server.
  const nc = await connect({ servers: url, name: "fault-test", maxReconnectAttempts: -1, reconnectTimeWait: 250 });
  const js = nc.jetstream();
  const jsm = await nc.jetstreamManager();
  return {
    publish: (subject: string, payload: unknown, msgID: string) => js.publish(subject, JSON.stringify(payload), { msgID }),
    consumer: (stream: string, durable: string) => jsm.consumers.info(stream, durable),
    setAckWait: (stream: string, durable: string, ms: number) => jsm.consumers.update(stream, durable, { ack_wait: nanos(ms) }),
    close: () => nc.close(),
  };
};
