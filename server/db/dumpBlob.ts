/**
 * A PGlite data folder dump (`dumpDataDir()`) as `loadDataDir` takes it. PGlite reads only its bytes
 * (`arrayBuffer()`; its `type` says whether they are gzipped: these are not). A Blob made from them
 * copies them in, and on Node 20 reads them back out in chunks that are joined again: about 0.4 s of
 * CPU for a 40 MB dump, a quarter of a start from one. This Blob hands PGlite the bytes as they are
 * (docs/performance.md), so they are not to be changed after; read any other way, it is an ordinary
 * Blob of them.
 */
export class DumpBlob extends Blob {
  readonly #bytes: Uint8Array<ArrayBuffer>;

  constructor(bytes: Uint8Array<ArrayBuffer>) {
    super([]);
    this.#bytes = bytes;
  }

  override get size(): number {
    return this.#bytes.byteLength;
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    const { buffer, byteOffset, byteLength } = this.#bytes;
    return byteOffset === 0 && byteLength === buffer.byteLength ? buffer : buffer.slice(byteOffset, byteOffset + byteLength);
  }

  override stream(): ReturnType<Blob['stream']> {
    return new Blob([this.#bytes]).stream();
  }

  override text(): Promise<string> {
    return new Blob([this.#bytes]).text();
  }

  override slice(start?: number, end?: number, contentType?: string): Blob {
    return new Blob([this.#bytes]).slice(start, end, contentType);
  }
}
