import { connect } from "nats";

/**
 * Services running under NATS_NAMESPACE create `<namespace>_<STREAM>` streams (and `KV_<namespace>_<BUCKET>` key-value buckets) on the server; a test or
 * benchmark that made a namespace removes them again, so the shared server does not fill up run after run.
 */
export const deleteNamespaceStreams = async (natsUrl: string, namespace: string): Promise<void> => {
  const nc = await connect({ servers: natsUrl, name: "fit-testing-cleanup" });
  try {
    const jsm = await nc.jetstreamManager();
    const names: string[] = [];
    // Key-value buckets are streams too, named KV_<bucket>.
    const prefixes = [`${namespace}_`, `KV_${namespace}_`];
    for await (const name of jsm.streams.names()) if (prefixes.some((p) => name.startsWith(p))) names.push(name);
    for (const name of names) await jsm.streams.delete(name);
  } finally {
    await nc.close();
  }
};
