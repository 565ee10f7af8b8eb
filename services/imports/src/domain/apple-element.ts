// One child of Apple Health's <HealthData>, parsed on its own once the reader has its bytes
// (docs/decisions/0078-apple-health-and-archives.md): never more than one record is ever a tree.
import { SaxesParser } from "saxes";
import { instantOf } from "./local-time.ts";

/** An element as parsed: its name, attributes and children (an export's records nest at most a few levels). */
export interface Node {
  name: string;
  attributes: Record<string, string>;
  children: Node[];
}

const MAX_CHILDREN = 10_000;

/** One child of <HealthData> as a small tree; throws on malformed XML (an undeclared entity among others). */
export const parseElement = (bytes: Buffer): Node => {
  const parser = new SaxesParser();
  const stack: Node[] = [];
  let top: Node | undefined;
  let children = 0;
  let failure: Error | undefined;
  parser.on("error", (error) => {
    failure ??= error;
  });
  parser.on("opentag", (tag) => {
    if (++children > MAX_CHILDREN) failure ??= new Error(`more than ${MAX_CHILDREN} elements in one record`);
    const node: Node = { name: tag.name, attributes: tag.attributes, children: [] };
    if (stack.length) stack.at(-1)!.children.push(node);
    else top = node;
    stack.push(node);
  });
  parser.on("closetag", () => {
    stack.pop();
  });
  parser.write(bytes.toString("utf8")).close();
  if (failure) throw failure;
  if (!top) throw new Error("no element");
  return top;
};

/** An Apple date (`2024-03-01 07:12:09 +0100`): its offset says where it was; none is read as UTC. */
export const appleInstant = (text: string | undefined): number | undefined => (text ? instantOf(text, null, "UTC") : undefined);

