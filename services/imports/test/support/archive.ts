// Zip archives written by the tests (yazl), and the byte patches that make a hostile one out of a well-formed one:
// yazl itself refuses to write a name with `..` or a size that lies.
import yazl from "yazl";

export interface ZipEntry {
  name: string;
  data: Buffer | string;
  /** Unix mode bits (yazl's default is a regular file). */
  mode?: number;
  /** Default true (deflate); false stores it. */
  compress?: boolean;
}

/** The archive of `entries`; `zip64` writes its end records as an archive of more than 65 535 entries needs them. */
export const zipOf = async (entries: ZipEntry[], zip64 = false): Promise<Buffer> => {
  const zip = new yazl.ZipFile();
  for (const { name, data, mode, compress = true } of entries) {
    zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name, { compress, ...(mode === undefined ? {} : { mode }) });
  }
  zip.end({ forceZip64Format: zip64, comment: "" });
  const parts: Buffer[] = [];
  for await (const part of zip.outputStream) parts.push(part as Buffer);
  return Buffer.concat(parts);
};

const CENTRAL = Buffer.from("PK\x01\x02", "latin1");

/** Rewrites the sizes the central directory declares for each entry (what a reader checks before inflating). */
export const declareSizes = (zip: Buffer, sizes: (name: string) => { compressed?: number; uncompressed?: number }) => {
  const patched = Buffer.from(zip);
  for (let at = patched.indexOf(CENTRAL); at >= 0; at = patched.indexOf(CENTRAL, at + 4)) {
    const name = patched.subarray(at + 46, at + 46 + patched.readUInt16LE(at + 28)).toString();
    const { compressed, uncompressed } = sizes(name);
    if (compressed !== undefined) patched.writeUInt32LE(compressed, at + 20);
    if (uncompressed !== undefined) patched.writeUInt32LE(uncompressed, at + 24);
  }
  return patched;
};

const ZIP64_END = Buffer.from("PK\x06\x06", "latin1");

/** A zip64 archive whose end record declares `count` entries (it holds fewer). */
export const declareEntries = (zip: Buffer, count: number) => {
  const patched = Buffer.from(zip);
  const at = patched.lastIndexOf(ZIP64_END);
  patched.writeBigUInt64LE(BigInt(count), at + 24);
  patched.writeBigUInt64LE(BigInt(count), at + 32);
  return patched;
};

/** Every occurrence of one name replaced by another of the same length (in the local and the central headers). */
export const renamed = (zip: Buffer, from: string, to: string) => {
  if (from.length !== to.length) throw new Error("a name is patched in place: same length only");
  return Buffer.from(zip.toString("latin1").replaceAll(from, to), "latin1");
};
