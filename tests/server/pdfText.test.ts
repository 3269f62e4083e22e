/** The PDF reader the statement tests use must not break jsdom for the files that run after them. */
import { expect, it } from 'vitest';
import { pdfPages } from '../support/pdfText.ts';

it('a jsdom window that runs scripts can still be made once the PDF reader is loaded (files share modules)', async () => {
  expect(typeof pdfPages).toBe('function');
  const { JSDOM } = await import('jsdom');
  const window = new JSDOM('<p>statement</p>', { runScripts: 'outside-only' }).window;
  expect(window.document.querySelector('p')?.textContent).toBe('statement');
});
