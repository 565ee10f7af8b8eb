import { SaxesParser } from "saxes";
import { ActivityFileError, ActivityFileTooLarge } from "./imported-activity.ts";

/**
 * What one GPX or TCX file may hold (docs/security.md#25-activity-file-imports). Real exports nest 9 levels,
 * hold about 15 elements per point and a few short attributes per element; the caps leave room for any of them
 * and bound the work a made-up file can cause. Nothing is ever held but the values read, so memory does not grow
 * with the file's shape.
 */
const XML_LIMITS = {
  depth: 32,
  elements: 1_500_000,
  attributes: 64,
  attributeChars: 4096,
  textChars: 65_536,
} as const;

/** The decoder is fed this much at a time, so a 10 MiB file is never one 20 MB string. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Reads a GPX or TCX document as it is parsed. `open` sees each element's local name (any prefix dropped, as
 * exporters pick their own) with the names of the elements it sits in; `close` the same with the text the element
 * holds, whole for an element without children (only the values of such elements are read).
 */
export interface XmlVisitor {
  open(name: string, path: readonly string[], attributes: Readonly<Record<string, string>>): void;
  close(name: string, path: readonly string[], text: string): void;
}

const localName = (qualified: string) => qualified.slice(qualified.indexOf(":") + 1);

const tooLarge = (what: string) => new ActivityFileTooLarge(`the file is too large to read: ${what}`);

const checkAttributes = (attributes: Record<string, string>) => {
  const values = Object.values(attributes);
  if (values.length > XML_LIMITS.attributes) throw tooLarge(`an element with more than ${XML_LIMITS.attributes} attributes`);
  if (values.some((value) => value.length > XML_LIMITS.attributeChars)) {
    throw tooLarge(`an attribute longer than ${XML_LIMITS.attributeChars} characters`);
  }
};

const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/** Where the markup starts, after a byte-order mark and blank space; -1 when the bytes do not start with `<`. */
export const markupStart = (bytes: Uint8Array): number => {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (isSpace(bytes[at])) at++;
  return bytes[at] === 0x3c ? at : -1;
};

/**
 * Streams `bytes` (markup from `start`) through a SAX parser into the visitor `visitorFor` picks for the root
 * element. A document type is refused outright: it is how billion-laughs entity expansion and external entities
 * (XXE) get in, and activity files never need one; with none, any entity but XML's five is an error. Throws
 * ActivityFileError for malformed XML and the caps above (ActivityFileTooLarge for the sizes).
 */
export const readXml = <V extends XmlVisitor>(bytes: Uint8Array, start: number, visitorFor: (root: string) => V): V => {
  const parser = new SaxesParser();
  const path: string[] = [];
  let visitor: V | undefined;
  let elements = 0;
  let text = "";
  const addText = (chunk: string) => {
    if (text.length + chunk.length > XML_LIMITS.textChars) throw tooLarge(`a text longer than ${XML_LIMITS.textChars} characters`);
    text += chunk;
  };
  parser.on("doctype", () => {
    throw new ActivityFileError("the file contains a DOCTYPE or ENTITY declaration, which is not accepted");
  });
  parser.on("opentag", (tag) => {
    if (++elements > XML_LIMITS.elements) throw tooLarge(`more than ${XML_LIMITS.elements} elements`);
    if (path.length >= XML_LIMITS.depth) throw new ActivityFileError(`the file nests elements deeper than ${XML_LIMITS.depth} levels`);
    const { attributes } = tag;
    checkAttributes(attributes);
    const name = localName(tag.name);
    visitor ??= visitorFor(name);
    visitor.open(name, path, attributes);
    path.push(name);
    text = "";
  });
  parser.on("text", addText);
  parser.on("cdata", addText);
  parser.on("closetag", (tag) => {
    path.pop();
    visitor?.close(localName(tag.name), path, text);
    text = "";
  });
  try {
    const decoder = new TextDecoder();
    for (let offset = start; offset < bytes.length; offset += CHUNK_BYTES) {
      parser.write(decoder.decode(bytes.subarray(offset, offset + CHUNK_BYTES), { stream: true }));
    }
    parser.write(decoder.decode());
    parser.close();
  } catch (error) {
    if (error instanceof ActivityFileError) throw error;
    throw new ActivityFileError("malformed XML");
  }
  if (visitor === undefined) throw new ActivityFileError("malformed XML");
  return visitor;
};

/** A number an element states; null when absent or not a number. */
export const numberIn = (text: string | undefined): number | null => {
  const value = Number.parseFloat(text ?? "");
  return Number.isFinite(value) ? value : null;
};

/** GPX and TCX times are xsd:dateTime text; null when absent or unreadable. */
export const parseDateTime = (text: string | null | undefined): number | null => {
  const ms = text === null || text === undefined ? Number.NaN : Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
};
