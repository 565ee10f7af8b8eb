import { connect } from "nats";

/**
 * Services running under NATS_NAMESPACE create `<namespace>_<STREAM>` streams on the server; a test or
 * benchmark that made a namespace removes them again, so the shared server does not fill up run after run.
 */
export const deleteNamespaceStreams = async (natsUrl: string, namespace: string): Promise<void> => {
  const nc = await connect({ servers: natsUrl, name: "fit-testing-cleanup" });
  try {
    const jsm = await nc.jetstreamManager();
    const names: string[] = [];
    for await (const name of jsm.streams.names()) if (name.startsWith(`${namespace}_`)) names.push(name);
    for (const name of names) await jsm.streams.delete(name);
  } finally {
    await nc.close();
  }
};
