/**
 * A pdf-lib document saved with its streams compressed by Node's zlib instead of pdf-lib's JavaScript
 * deflate (pako): the same Flate encoding, done natively in a fraction of the time and memory. The
 * pages' content streams are replaced by compressed copies; the other objects are packed into object
 * streams as pdf-lib's own writer (PDFStreamWriter) packs them, with a cross-reference stream, both
 * compressed here. A tagged 500-row statement has some 2,100 small objects (most of them structure
 * elements): pako took most of its time compressing their 40-odd object streams.
 */
import { deflateSync, inflateSync } from 'node:zlib';
import {
  PDFContentStream,
  PDFCrossRefStream,
  PDFDict,
  type PDFDocument,
  PDFHeader,
  PDFInvalidObject,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFObjectStream,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFTrailer,
  PDFWriter,
} from 'pdf-lib';

/** The document's bytes (its fonts embedded first), never yielding to the event loop while written. */
export async function saveWithZlib(document: PDFDocument): Promise<Uint8Array> {
  compressContentStreams(document);
  await document.flush();
  addFontFileLengths(document);
  return ZlibStreamWriter.of(document).serializeToBuffer();
}

/**
 * Each embedded TrueType font file's `Length1`, its length before compression, which ISO 32000-1
 * (Table 127) requires and pdf-lib leaves out. The fonts are embedded at `flush`.
 */
function addFontFileLengths(document: PDFDocument) {
  const { context } = document;
  for (const [, object] of context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || object.get(PDFName.Type) !== PDFName.of('FontDescriptor')) continue;
    const file = object.lookup(PDFName.of('FontFile2'));
    if (file instanceof PDFRawStream) file.dict.set(PDFName.of('Length1'), PDFNumber.of(inflateSync(file.contents).length));
  }
}

/** The pages' content streams, compressed. */
function compressContentStreams(document: PDFDocument) {
  const { context } = document;
  for (const page of document.getPages()) {
    const contents = page.node.normalizedEntries().Contents;
    for (let index = 0; index < (contents?.size() ?? 0); index += 1) {
      const ref = contents!.get(index);
      const stream = ref instanceof PDFRef ? context.lookup(ref) : undefined;
      if (!(stream instanceof PDFContentStream)) continue;
      context.assign(ref as PDFRef, context.stream(deflateSync(stream.getUnencodedContents()), { Filter: 'FlateDecode' }));
    }
  }
}

/** `stream` (made unencoded) as a stream of its dictionary and its contents compressed. */
function compressed(stream: PDFObjectStream | PDFCrossRefStream): PDFRawStream {
  // The contents, once (cached); a cross-reference stream's dictionary gets its /W and /Index.
  if (stream instanceof PDFCrossRefStream) stream.updateDict();
  const copy = PDFRawStream.of(stream.dict, deflateSync(stream.getContents()));
  copy.dict.set(PDFName.of('Filter'), PDFName.of('FlateDecode'));
  return copy;
}

/**
 * Up to 1,000 objects to an object stream (pdf-lib packs 50): each zlib call costs about 0.1 ms
 * however little it compresses, more than a 150 KB stream's whole compression, and one stream
 * compresses better than many.
 */
const objectsPerStream = 1000;

/** PDFStreamWriter's layout (pdf-lib 1.17.1, core/writers/PDFStreamWriter.js), its streams compressed with zlib. */
class ZlibStreamWriter extends PDFWriter {
  static of(document: PDFDocument): ZlibStreamWriter {
    return new ZlibStreamWriter(document.context, Number.POSITIVE_INFINITY);
  }

  protected override async computeBufferSize() {
    const { context } = this;
    let objectNumber = context.largestObjectNumber + 1;
    const header = PDFHeader.forVersion(1, 7);
    let size = header.sizeInBytes() + 2;
    const xrefStream = PDFCrossRefStream.create(this.createTrailerDict(), false);
    const written: [PDFRef, PDFObject][] = [];
    const add = (ref: PDFRef, object: PDFObject) => {
      written.push([ref, object]);
      xrefStream.addUncompressedEntry(ref, size);
      size += this.computeIndirectObjectSize([ref, object]);
    };
    // Streams stay apart; every other object goes into an object stream, in order.
    const packed: { ref: PDFRef; objects: [PDFRef, PDFObject][] }[] = [];
    for (const [ref, object] of context.enumerateIndirectObjects()) {
      if (object instanceof PDFStream || object instanceof PDFInvalidObject || ref.generationNumber !== 0 || ref === context.trailerInfo.Encrypt) {
        add(ref, object);
        continue;
      }
      let chunk = packed.at(-1);
      if (!chunk || chunk.objects.length === objectsPerStream) packed.push((chunk = { ref: PDFRef.of(objectNumber++), objects: [] }));
      xrefStream.addCompressedEntry(ref, chunk.ref, chunk.objects.length);
      chunk.objects.push([ref, object]);
    }
    for (const { ref, objects } of packed) add(ref, compressed(PDFObjectStream.withContextAndObjects(context, objects, false)));

    const xrefRef = PDFRef.of(objectNumber++);
    xrefStream.dict.set(PDFName.of('Size'), context.obj(objectNumber));
    const xrefOffset = size;
    xrefStream.addUncompressedEntry(xrefRef, size);
    const xref = compressed(xrefStream);
    written.push([xrefRef, xref]);
    size += this.computeIndirectObjectSize([xrefRef, xref]);
    const trailer = PDFTrailer.forLastCrossRefSectionOffset(xrefOffset);
    size += trailer.sizeInBytes();
    return { size, header, indirectObjects: written, trailer };
  }
}
