import { describe, expect, it } from 'vitest';
import { JsonArrayReader } from '../src/services/import/json-array';

/** Feeds `text` in chunks of `size` bytes; returns the elements in the batches handed over. */
function read(text: string, size: number, batchBytes = 16): unknown[][] {
  const batches: unknown[][] = [];
  const reader = new JsonArrayReader((elements) => batches.push(elements), batchBytes);
  const bytes = Buffer.from(text, 'utf8');
  for (let start = 0; start < bytes.length; start += size) {
    reader.push(bytes.subarray(start, start + size));
  }
  reader.end();
  return batches;
}

const tricky = [
  { name: 'Zoë, "the one" }, { [brackets]', n: 1 },
  { name: 'back\\slash\\', list: [1, [2, { a: ',' }]] },
  'a string, with a comma',
  42,
  null,
  { emoji: '🎧 ✓', escaped: '\u0000\n"' },
];

describe('JsonArrayReader', () => {
  it('reads what JSON.parse reads, in batches, whatever the chunking', () => {
    const layouts = [
      JSON.stringify(tricky),
      `\n [ ${JSON.stringify(tricky, null, 2).slice(1)}  \n`,
    ];
    for (const text of layouts) {
      for (const size of [1, 2, 3, 7, 64, 100_000]) {
        const batches = read(text, size);
        expect(batches.flat()).toEqual(JSON.parse(text));
        if (size < 64) expect(batches.length).toBeGreaterThan(1);
      }
    }
  });

  it('reads empty arrays', () => {
    expect(read('[]', 1).flat()).toEqual([]);
    expect(read(' [ \n ] ', 2).flat()).toEqual([]);
  });

  it('refuses anything but one valid JSON array', () => {
    const notArrays = ['{"a": 1}', '"text"', '7'];
    const invalid = [
      '',
      '   ',
      '[1, 2',
      '[1, 2,]',
      '[1,,2]',
      '[,1]',
      '[1] [2]',
      '[1] x',
      '[{"a": 1]',
      '[{"a": 1}}',
      '[{"a": tru}]',
      '\uFEFF[1]',
    ];
    for (const text of invalid) expect(() => JSON.parse(text), text).toThrow(SyntaxError);
    for (const text of [...notArrays, ...invalid]) {
      for (const size of [1, 3, 1000]) expect(() => read(text, size), text).toThrow(SyntaxError);
    }
  });
});
