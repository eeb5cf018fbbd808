/**
 * Reads a JSON array as it streams in, in batches of whole elements, so that neither the file's
 * text nor its parsed rows are ever whole in memory: each batch (about `batchBytes` of text) is
 * parsed on its own and handed over, and its objects die young. The result is the same as
 * `JSON.parse` of the whole text: any text that is not one JSON array fails with a SyntaxError,
 * but only once the bad part is reached (batches before it have been handed over by then).
 */

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const isSpace = (byte: number) => byte === SPACE || byte === LF || byte === CR || byte === TAB;

export class JsonArrayReader {
  /** Chunks not yet handed over; the first starts right after the last separator handed over. */
  private chunks: Buffer[] = [];
  private pendingBytes = 0;
  /** The last element separator seen and not handed over: chunk index and offset. */
  private separatorChunk = -1;
  private separatorOffset = -1;
  private bytesToSeparator = 0;
  /** 0 before the array, 1 inside it (between elements), more inside an element. */
  private depth = 0;
  private inString = false;
  private escaped = false;
  private started = false;
  private ended = false;
  /** Whether a separator has been handed over, so that an empty last element is an error. */
  private afterSeparator = false;
  private elements = 0;

  constructor(
    private readonly onBatch: (elements: unknown[]) => void,
    private readonly batchBytes = 64 * 1024,
  ) {}

  /** Elements handed over so far. */
  get count(): number {
    return this.elements;
  }

  push(chunk: Buffer): void {
    let start = 0;
    if (!this.started) {
      while (start < chunk.length && isSpace(chunk[start]!)) start++;
      if (start === chunk.length) return;
      if (chunk[start] !== OPEN_BRACKET) throw new SyntaxError('not a JSON array');
      this.started = true;
      this.depth = 1;
      start++;
    }
    if (this.ended) {
      this.expectSpace(chunk, start);
      return;
    }
    const index = this.chunks.length;
    const end = this.scan(chunk, start, index);
    this.chunks.push(end < chunk.length ? chunk.subarray(start, end) : chunk.subarray(start));
    this.pendingBytes += end - start;
    if (this.ended) {
      this.expectSpace(chunk, end + 1);
      return;
    }
    if (this.separatorChunk >= 0 && this.bytesToSeparator >= this.batchBytes) this.flush();
  }

  /** Hands over the last batch; throws unless the whole text was one JSON array. */
  end(): void {
    if (!this.ended) throw new SyntaxError('unexpected end of JSON input');
    if (this.separatorChunk >= 0) this.flush();
    const rest = this.text(this.chunks.length);
    if (rest.trim() === '') {
      if (this.afterSeparator) throw new SyntaxError('unexpected end of array');
    } else {
      this.hand(rest);
    }
    this.chunks = [];
  }

  /** Scans `chunk` from `start`; returns where the array's closing bracket is, or the length. */
  private scan(chunk: Buffer, start: number, index: number): number {
    let { depth, inString, escaped } = this;
    const length = chunk.length;
    let i = start;
    // Where the next backslash is (searched again only once passed): escapes are rare.
    let backslash = -1;
    for (; i < length; i++) {
      if (inString && !escaped) {
        // Most of the text is inside strings: jump to the next quote or backslash natively.
        if (backslash < i) {
          backslash = chunk.indexOf(BACKSLASH, i);
          if (backslash < 0) backslash = length;
        }
        const quote = chunk.indexOf(QUOTE, i);
        const next = Math.min(quote < 0 ? length : quote, backslash);
        if (next === length) {
          i = length;
          break;
        }
        i = next;
      }
      const byte = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) {
        inString = true;
      } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        depth++;
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) {
          if (byte !== CLOSE_BRACKET) throw new SyntaxError('unbalanced JSON');
          this.ended = true;
          break;
        }
      } else if (byte === COMMA && depth === 1) {
        this.separatorChunk = index;
        this.separatorOffset = i - start;
        this.bytesToSeparator = this.pendingBytes + (i - start);
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return i;
  }

  private expectSpace(chunk: Buffer, from: number): void {
    for (let i = from; i < chunk.length; i++) {
      if (!isSpace(chunk[i]!)) throw new SyntaxError('unexpected text after the JSON array');
    }
  }

  /** Hands over the elements up to the last separator; keeps what follows it. */
  private flush(): void {
    const last = this.chunks[this.separatorChunk]!;
    const head = this.text(this.separatorChunk, last.subarray(0, this.separatorOffset));
    const tail = last.subarray(this.separatorOffset + 1);
    this.chunks = [tail, ...this.chunks.slice(this.separatorChunk + 1)];
    this.pendingBytes -= this.bytesToSeparator + 1;
    this.separatorChunk = -1;
    this.afterSeparator = true;
    // JSON.parse sees `[1,]` and `[,1]` as errors, but not an empty batch before a separator.
    if (head.trim() === '') throw new SyntaxError('empty array element');
    this.hand(head);
  }

  /** The text of the first `count` chunks, then `extra`. */
  private text(count: number, extra?: Buffer): string {
    const parts = this.chunks.slice(0, count);
    if (extra) parts.push(extra);
    return parts.length === 1 ? parts[0]!.toString('utf8') : Buffer.concat(parts).toString('utf8');
  }

  private hand(elementsText: string): void {
    const elements = JSON.parse(`[${elementsText}]`) as unknown[];
    this.elements += elements.length;
    this.onBatch(elements);
  }
}
