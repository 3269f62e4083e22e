import { describe, expect, it } from 'vitest';
import { DumpBlob } from '../../server/db/dumpBlob.ts';

/** Everything a Blob says of its bytes, to compare two. */
async function read(blob: Blob) {
  const streamed = [...new Uint8Array(await new Response(blob.stream()).arrayBuffer())];
  return {
    size: blob.size,
    type: blob.type,
    bytes: [...new Uint8Array(await blob.arrayBuffer())],
    text: await blob.text(),
    streamed,
    slice: [...new Uint8Array(await blob.slice(2, 5, 'text/plain').arrayBuffer())],
    sliceType: blob.slice(2, 5, 'text/plain').type,
  };
}

describe('a dump handed to PGlite as it is', () => {
  it('reads as a Blob of its bytes, a view into a larger buffer too', async () => {
    const whole = new TextEncoder().encode('..a dump of a data folder..');
    for (const bytes of [whole, whole.subarray(2, 25)]) {
      const view = bytes as Uint8Array<ArrayBuffer>;
      expect(await read(new DumpBlob(view))).toEqual(await read(new Blob([view])));
    }
  });

  it('gives PGlite the bytes without copying them when they fill their buffer', async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(await new DumpBlob(bytes).arrayBuffer()).toBe(bytes.buffer);
  });
});
