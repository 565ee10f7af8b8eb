import { headers as natsHeaders, type MsgHdrs } from "nats";
import { normalizeHeaders } from "../reply-codec.ts";

export const fromNatsHeaders = (h: MsgHdrs): Record<string, string> =>
  normalizeHeaders(h.keys().map((k): [string, string] => [k, h.get(k)]));

export const toNatsHeaders = (record: Record<string, string>): MsgHdrs | undefined => {
  const entries = Object.entries(record);
  if (entries.length === 0) return undefined;
  const h = natsHeaders();
  for (const [k, v] of entries) h.set(k, v.replace(/[\r\n]+/g, " "));
  return h;
};
