/** The bytes of `source` in pieces of exactly `size` (the last may be shorter): how a file is stored, whatever it arrived in. */
export async function* fixedPieces(source: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let held = 0;
  for await (const piece of source) {
    pending.push(piece);
    held += piece.length;
    while (held >= size) {
      const joined = Buffer.concat(pending);
      yield joined.subarray(0, size);
      pending = [joined.subarray(size)];
      held = joined.length - size;
    }
  }
  if (held > 0) yield Buffer.concat(pending);
}
