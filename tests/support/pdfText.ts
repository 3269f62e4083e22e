/**
 * The text of a PDF, page by page, as a reader (or a screen reader) gets it: pdfjs-dist's legacy
 * build, which runs in Node (server tests, and Playwright reading a downloaded statement).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
// jsdom before pdfjs: jsdom lists, when it loads, which of Node's globals its windows get, and pdfjs's
// legacy build adds a global `Iterator` (a polyfill) that Node 20's window contexts lack. Test files
// share their worker's modules, so a jsdom loaded after pdfjs (tests/server/cards/processor.test.ts
// after a statements test) failed to create a window: "Iterator is not defined".
import 'jsdom';
import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

const standardFontDataUrl = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** What `read` reads of the PDF, opened with pdfjs (tests import pdfjs only through this module: see above). */
export async function withPdfDocument<T>(bytes: Uint8Array, read: (document: PDFDocumentProxy) => Promise<T>): Promise<T> {
  // pdfjs takes the buffer over: give it a copy.
  const document = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    return await read(document);
  } finally {
    await document.destroy();
  }
}

/** Each page's text: its pieces joined by spaces, in the order the page draws them. */
export function pdfPages(bytes: Uint8Array): Promise<string[]> {
  return withPdfDocument(bytes, async (document) => {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const content = await (await document.getPage(number)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
    }
    return pages;
  });
}

/** The whole document's text. */
export const pdfText = async (bytes: Uint8Array) => (await pdfPages(bytes)).join('\n');

/** The document's metadata title and language. */
export function pdfInfo(bytes: Uint8Array): Promise<{ numPages: number; title: string | undefined; language: string | undefined }> {
  return withPdfDocument(bytes, async (document) => {
    const { info } = (await document.getMetadata()) as { info: { Title?: string; Language?: string } };
    return { numPages: document.numPages, title: info.Title, language: info.Language };
  });
}
