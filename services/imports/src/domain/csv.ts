// CSV read as bytes, record by record, so a file of any size is read in bounded memory and an import can stop and
// go on at any record's byte offset (its checkpoint). The quote and the line feed are ASCII, so a UTF-8 character's
// bytes never look like either.

const QUOTE = 0x22;
const LF = 0x0a;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** A record longer than this fails the import: no export writes such lines, and it bounds what is held at once. */
export const MAX_RECORD_BYTES = 64 * 1024;

/** The file cannot be read on (a reason for the import's `error`). */
export class UnreadableFile extends Error {}

const tooLong = (line: number) => new UnreadableFile(`line ${line} is longer than ${MAX_RECORD_BYTES / 1024} KiB`);

export interface CsvRecord {
  /** The record's text without its line ending. */
  text: string;
  /** The file line it starts on (1 is the first). */
  line: number;
  /** Where reading goes on after it: the byte offset just past it, and that byte's line. */
  next: { offset: number; line: number };
}

/**
 * The records of a file whose bytes arrive in `chunks` starting at byte `offset` (a record's start) on line
 * `line`. A line feed inside quotes belongs to the field; blank lines are skipped.
 */
export async function* csvRecords(chunks: AsyncIterable<Buffer>, offset: number, line: number): AsyncGenerator<CsvRecord> {
  let parts: Buffer[] = [];
  let held = 0;
  let quoted = false;
  let start = offset;
  let startLine = line;
  let position = offset;
  const finish = (end: number): CsvRecord | undefined => {
    const bytes = Buffer.concat(parts);
    if (bytes.length > MAX_RECORD_BYTES + 2) throw tooLong(startLine);
    parts = [];
    held = 0;
    const body = start === 0 && bytes.subarray(0, 3).equals(BOM) ? bytes.subarray(3) : bytes;
    const text = body.toString("utf8").replace(/\r?\n$/, "").replace(/\r$/, "");
    const record = { text, line: startLine, next: { offset: end, line } };
    start = end;
    return text.trim() === "" ? undefined : record;
  };
  for await (const chunk of chunks) {
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte === QUOTE) quoted = !quoted;
      else if (byte === LF) {
        line++;
        if (quoted) continue;
        parts.push(chunk.subarray(from, i + 1));
        from = i + 1;
        const record = finish(position + i + 1);
        startLine = line;
        if (record) yield record;
      }
    }
    if (from < chunk.length) {
      parts.push(chunk.subarray(from));
      held += chunk.length - from;
      if (held > MAX_RECORD_BYTES + 2) throw tooLong(startLine);
    }
    position += chunk.length;
  }
  if (held > 0) {
    const record = finish(position);
    if (record) yield record;
  }
}

/** A record's fields: quotes around a field removed, a doubled quote inside one read as one. */
export const fieldsOf = (text: string, delimiter: string): string[] => {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === delimiter) {
      fields.push(field);
      field = "";
    } else field += char;
  }
  fields.push(field);
  return fields.map((f) => f.trim());
};
