// An XML document read as bytes, one child of its root at a time, so a file of any size is read in bounded memory
// and a step can go on at any child's byte offset (its checkpoint) without reading what came before
// (docs/decisions/0078-apple-health-and-archives.md). Only the markup's boundaries are found here (tags, quotes,
// comments, CDATA); a child a reader wants is parsed on its own afterwards. `<`, `>`, quotes and the line feed
// are ASCII, so a UTF-8 character's bytes never look like any of them.
import { UnreadableFile } from "./csv.ts";

/** A child of the root longer than this fails the import: a Workout with its events and statistics is a few KiB. */
export const MAX_ELEMENT_BYTES = 1024 * 1024;
/** The XML declaration and document type before the root; Apple's own declares its elements in about 10 KiB. */
const MAX_PROLOG_BYTES = 256 * 1024;
/** How deep elements may nest; Apple's go 3 levels below the root. */
const MAX_DEPTH = 16;

export interface XmlElement {
  /** The element's bytes, from its `<` to its last `>`. */
  bytes: Buffer;
  /** The file line it starts on. */
  line: number;
  /** Where reading goes on after it: the byte offset just past it, and that byte's line. */
  next: { offset: number; line: number };
}

const LT = 0x3c, GT = 0x3e, SLASH = 0x2f, BANG = 0x21, QUESTION = 0x3f, DQUOTE = 0x22, SQUOTE = 0x27, LF = 0x0a;
const LBRACKET = 0x5b, RBRACKET = 0x5d, DASH = 0x2d;

const enum State { Text, Open, Bang, Comment, Cdata, Pi, StartTag, EndTag, Doctype }

/**
 * The children of the root of a document whose bytes arrive in `chunks` from `offset`: the document's start (0),
 * or a checkpoint just past a child. At the start the prolog is read and checked: a document type may declare
 * elements and attributes (Apple's does) but never an entity, which is how entity expansion bombs and external
 * entities get in; with none declared, no reference but XML's five can mean anything. `root` names the root
 * element the document must have.
 */
export async function* rootChildren(chunks: AsyncIterable<Buffer>, offset: number, line: number, root: string): AsyncGenerator<XmlElement> {
  let state = State.Text;
  let depth = offset === 0 ? 0 : 1;
  let position = offset;
  let quote = 0;
  // The last bytes seen in a construct whose end is more than one byte long (`-->`, `]]>`, `?>`), and the few
  // bytes after `<!` that say which construct it is.
  let tail = "";
  let prologEnd = offset === 0 ? MAX_PROLOG_BYTES : 0;
  let closing = false;
  let selfClosing = false;
  let subsetDepth = 0;
  let tagName = "";
  let naming = false;
  // The child being read: where it starts and its bytes so far.
  let start = -1;
  let startLine = line;
  let parts: Buffer[] = [];
  let held = 0;
  // Where the child's bytes start in the chunk in hand.
  let from = 0;
  // A comment inside the document type: reading goes back to the document type after it.
  let doctypeComment = false;

  const fail = (what: string) => new UnreadableFile(`line ${line}: ${what}`);

  const drop = () => {
    parts = [];
    held = 0;
    start = -1;
  };

  for await (const chunk of chunks) {
    from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (byte === LF) line++;
      switch (state) {
        case State.Text:
          if (byte === LT) {
            state = State.Open;
            if (depth === 1) {
              start = position + i;
              startLine = line;
              from = i;
            }
          }
          break;
        case State.Open:
          if (byte === BANG) {
            state = State.Bang;
            tail = "";
          } else if (byte === QUESTION) {
            state = State.Pi;
            tail = "";
          } else {
            closing = byte === SLASH;
            state = closing ? State.EndTag : State.StartTag;
            selfClosing = false;
            quote = 0;
            tagName = closing ? "" : String.fromCharCode(byte);
            naming = true;
          }
          break;
        case State.Bang:
          tail += String.fromCharCode(byte);
          if (tail === "--") {
            state = State.Comment;
            tail = "";
          } else if (tail === "[CDATA[") {
            if (depth === 0) throw fail("text before the root element");
            state = State.Cdata;
            tail = "";
          } else if (tail.toUpperCase() === "DOCTYPE") {
            if (depth !== 0 || offset !== 0) throw fail("a document type inside the document");
            state = State.Doctype;
            quote = 0;
            subsetDepth = 0;
            tail = "";
          } else if (tail.length >= 7) throw fail(`"<!${tail}" is no markup this import reads`);
          break;
        case State.Comment:
          tail = (tail + String.fromCharCode(byte)).slice(-3);
          if (tail === "-->") {
            state = State.Text;
            if (depth === 1) drop();
          }
          break;
        case State.Cdata:
          tail = (tail + String.fromCharCode(byte)).slice(-3);
          if (tail === "]]>") state = State.Text;
          break;
        case State.Pi:
          tail = (tail + String.fromCharCode(byte)).slice(-2);
          if (tail === "?>") {
            state = State.Text;
            if (depth === 1) drop();
          }
          break;
        case State.Doctype:
          if (quote) {
            if (byte === quote) quote = 0;
          } else if (byte === DQUOTE || byte === SQUOTE) quote = byte;
          else if (byte === LBRACKET) subsetDepth++;
          else if (byte === RBRACKET) subsetDepth--;
          else if (byte === GT && subsetDepth === 0) state = State.Text;
          else if (subsetDepth > 0) {
            // Inside the internal subset only the declaration's keyword is looked at: `<!ENTITY` refuses the file.
            tail = (tail + String.fromCharCode(byte)).slice(-8);
            if (tail.toUpperCase() === "<!ENTITY") throw fail("the document declares entities, which this import refuses");
            if (byte === DASH && tail.endsWith("<!--")) {
              // A comment in the subset may hold quotes; skip it whole.
              state = State.Comment;
              tail = "";
              doctypeComment = true;
            }
          }
          break;
        case State.StartTag:
        case State.EndTag:
          if (quote) {
            if (byte === quote) quote = 0;
            break;
          }
          if (naming) {
            if (byte === GT || byte === SLASH || byte === 0x20 || byte === 0x09 || byte === LF || byte === 0x0d) naming = false;
            else {
              if (tagName.length < 64) tagName += String.fromCharCode(byte);
              break;
            }
          }
          if (byte === DQUOTE || byte === SQUOTE) {
            if (state === State.StartTag) quote = byte;
          } else if (byte === SLASH) selfClosing = true;
          else if (byte === GT) {
            state = State.Text;
            if (closing) {
              depth--;
              if (depth === 0) return;
              if (depth === 1 && start >= 0) {
                yield emit(chunk, i);
                from = i + 1;
              }
            } else if (depth === 0) {
              if (tagName !== root) throw fail(`the root element is <${tagName.slice(0, 40)}>, not <${root}>`);
              if (selfClosing) return;
              depth = 1;
              prologEnd = 0;
            } else if (selfClosing) {
              if (depth === 1) {
                yield emit(chunk, i);
                from = i + 1;
              }
            } else if (++depth > MAX_DEPTH) throw fail(`elements nested more than ${MAX_DEPTH} deep`);
          } else selfClosing = false;
          break;
      }
      if (doctypeComment && state === State.Text) {
        state = State.Doctype;
        doctypeComment = false;
        tail = "";
      }
    }
    if (start >= 0 && from < chunk.length) {
      parts.push(chunk.subarray(from));
      held += chunk.length - from;
    }
    position += chunk.length;
    if (held > MAX_ELEMENT_BYTES) throw new UnreadableFile(`line ${startLine}: an element longer than ${MAX_ELEMENT_BYTES / 1024} KiB`);
    if (prologEnd && position > prologEnd) throw new UnreadableFile(`the document's start is longer than ${MAX_PROLOG_BYTES / 1024} KiB before its root element`);
  }
  if (depth > 0 || state !== State.Text) throw new UnreadableFile("the document ends before its root element is closed");

  function emit(chunk: Buffer, end: number): XmlElement {
    const last = chunk.subarray(parts.length ? 0 : from, end + 1);
    const bytes = parts.length ? Buffer.concat([...parts, last]) : last;
    if (bytes.length > MAX_ELEMENT_BYTES) throw new UnreadableFile(`line ${startLine}: an element longer than ${MAX_ELEMENT_BYTES / 1024} KiB`);
    const element = { bytes, line: startLine, next: { offset: position + end + 1, line } };
    drop();
    return element;
  }
}
