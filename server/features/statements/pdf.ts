/**
 * A month's statement as a PDF (pdf-lib): the title, the cardholder, the masked account number and
 * the period; the month's opening balance, credits, debits, fees and closing balance; then every
 * posted transaction, oldest first, and the holds pending at the month's end (or now, while it runs),
 * on as many US Letter pages as it takes; the partner bank's name and address and the page number at
 * the foot of each page. In the reader's language. A month that is over is issued at its end: its
 * date and the file's dates are the month's end, so the same month gives the same file every time.
 *
 * The standard Helvetica fonts need no embedding (small, fast files) but only write WinAnsi
 * (Windows-1252) characters: Spanish accents, "•" and "…" are in it; anything else a merchant's name
 * may hold (another script, an emoji) is written without its accent or as "?" (winAnsiText).
 */
import { deflateSync } from 'node:zlib';
import {
  beginText,
  type Color,
  endText,
  moveText,
  PDFContentStream,
  PDFDocument,
  type PDFFont,
  type PDFName,
  type PDFPage,
  PDFRef,
  rgb,
  setFillingColor,
  setFontAndSize,
  showText,
  StandardFonts,
} from 'pdf-lib';
import { partnerBank, partnerBankAddress } from '../../../contract/shared/partnerBank.ts';
import type { StatementLocale } from '../../../contract/statements/types.ts';
import { type MonthStatement, monthStart, nextMonth } from './queries.ts';
import {
  formatDay,
  formatDollars,
  formatLongDate,
  formatMonth,
  formatSignedDollars,
  maskAccountNumber,
  statementText,
} from './statementText.ts';

/** US Letter, in points, and the page's layout. */
const pageSize: [number, number] = [612, 792];
const margin = 50;
const right = pageSize[0] - margin;
const footerTop = 72;
const rowHeight = 15;
const columns = { date: margin, description: margin + 62, amount: right };
const descriptionWidth = right - 90 - columns.description;
const muted = rgb(0.33, 0.36, 0.35);
const black = rgb(0, 0, 0);
const rule = rgb(0.75, 0.78, 0.77);

type Fonts = { regular: PDFFont; bold: PDFFont; supported: Set<number> };

/**
 * Text the standard fonts can write: Intl's special spaces and line breaks as spaces, a letter
 * outside WinAnsi without its accent when that is in it, anything else as "?".
 */
export function winAnsiText(text: string, supported: ReadonlySet<number>): string {
  let written = '';
  for (const character of text.normalize('NFC').replace(/[\s\u202F\u00A0]/g, ' ')) {
    if (supported.has(character.codePointAt(0)!)) {
      written += character;
      continue;
    }
    const base = character.normalize('NFD').replace(/\p{M}/gu, '');
    written += base.length > 0 && [...base].every((part) => supported.has(part.codePointAt(0)!)) ? base : '?';
  }
  return written;
}

/**
 * The statement of `statement.month` in `locale`, as PDF bytes. Issued `now` while the month runs, at
 * the month's end (`statement.asOf`) once it is over.
 */
export async function statementPdf(statement: MonthStatement, locale: StatementLocale, now: Date = new Date()): Promise<Uint8Array> {
  const text = statementText[locale];
  const issued = statement.inProgress ? now : statement.asOf;
  const document = await PDFDocument.create();
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const fonts: Fonts = { regular, bold: await document.embedFont(StandardFonts.HelveticaBold), supported: new Set(regular.getCharacterSet()) };
  const safe = (value: string) => winAnsiText(value, fonts.supported);

  const start = monthStart(statement.month);
  const lastDay = new Date(monthStart(nextMonth(statement.month)).getTime() - 86_400_000);
  const monthName = formatMonth(start, locale);
  const masked = maskAccountNumber(statement.prn);
  document.setTitle(safe(`${text.title}: ${monthName}`), { showInWindowTitleBar: true });
  document.setAuthor('Providers');
  document.setSubject(safe(`${text.accountNumber} ${masked}`));
  document.setLanguage(locale === 'es' ? 'es-US' : 'en-US');
  document.setCreationDate(issued);
  document.setModificationDate(issued);

  const pages: PDFPage[] = [];
  let page = document.addPage(pageSize);
  pages.push(page);
  let y = pageSize[1] - margin;

  /**
   * Text, drawn with the page's own operators: pdf-lib's drawText adds a font resource to the page at
   * every call given a font, and checks and wraps each call in a graphics state, which took most of a
   * statement's time. Font, size and colour persist between text objects: each is set when it changes.
   */
  const pageStates = new WeakMap<PDFPage, { fontNames: Map<PDFFont, PDFName>; font?: PDFFont; size?: number; color?: Color }>();
  const write = (value: string, x: number, options: { size?: number; bold?: boolean; color?: Color; alignRight?: boolean } = {}) => {
    const size = options.size ?? 10;
    const font = options.bold ? fonts.bold : fonts.regular;
    const color = options.color ?? black;
    const written = safe(value);
    const left = options.alignRight ? x - font.widthOfTextAtSize(written, size) : x;
    let state = pageStates.get(page);
    if (!state) pageStates.set(page, (state = { fontNames: new Map() }));
    let fontName = state.fontNames.get(font);
    if (!fontName) state.fontNames.set(font, (fontName = page.node.newFontDictionary(font.name, font.ref)));
    const operators = [beginText()];
    if (state.color !== color) operators.push(setFillingColor(color));
    if (state.font !== font || state.size !== size) operators.push(setFontAndSize(fontName, size));
    Object.assign(state, { color, font, size });
    operators.push(moveText(left, y), showText(font.encodeText(written)), endText());
    page.pushOperators(...operators);
  };
  const line = (at: number) => page.drawLine({ start: { x: margin, y: at }, end: { x: right, y: at }, thickness: 0.5, color: rule });
  /** Wraps a paragraph to the page's width. */
  const paragraph = (value: string, size: number) => {
    const words = safe(value).split(' ');
    let current = '';
    for (const word of words) {
      const next = current ? `${current} ${word}` : word;
      if (fonts.regular.widthOfTextAtSize(next, size) > right - margin && current) {
        write(current, margin, { size, color: muted });
        y -= size + 4;
        current = word;
      } else current = next;
    }
    if (current) write(current, margin, { size, color: muted });
    y -= size + 4;
  };

  // The heading, the account and the period.
  write('Providers', margin, { size: 11, bold: true, color: muted });
  y -= 26;
  write(text.title, margin, { size: 20, bold: true });
  y -= 22;
  write(monthName, margin, { size: 13 });
  y -= 26;
  const period = `${formatLongDate(start, locale)} – ${formatLongDate(lastDay, locale)}`;
  for (const [label, value] of [
    [text.cardholder, statement.cardholderName],
    [text.accountNumber, masked],
    [text.period, period],
    [text.issued, formatLongDate(issued, locale)],
  ] as const) {
    write(label, margin, { color: muted });
    write(value, margin + 170);
    y -= rowHeight;
  }
  if (statement.inProgress) {
    y -= 4;
    paragraph(text.inProgress, 9);
  }

  // The month's totals.
  y -= 14;
  write(text.summary, margin, { size: 13, bold: true });
  y -= 8;
  line(y);
  y -= rowHeight;
  for (const [label, cents, bold] of [
    [text.openingBalance, formatDollars(statement.openingBalance, locale), false],
    [text.credits, `+${formatDollars(statement.credits, locale)}`, false],
    [text.debits, formatDollars(-statement.debits, locale), false],
    [text.fees, formatDollars(statement.fees, locale), false],
    [text.closingBalance, formatDollars(statement.closingBalance, locale), true],
  ] as const) {
    // The closing balance is the total: a rule above it.
    if (bold) line(y + rowHeight - 4);
    write(label, margin, { bold });
    write(cents, right, { bold, alignRight: true });
    y -= rowHeight;
  }

  // Every transaction, a page at a time; then the holds pending.
  let heading = text.transactions;
  const tableHeading = (continued: boolean) => {
    write(continued ? `${heading} (${text.continued})` : heading, margin, { size: 13, bold: true });
    y -= 18;
    write(text.date, columns.date, { size: 9, bold: true, color: muted });
    write(text.description, columns.description, { size: 9, bold: true, color: muted });
    write(text.amount, columns.amount, { size: 9, bold: true, color: muted, alignRight: true });
    y -= 6;
    line(y);
    y -= rowHeight - 2;
  };
  const newPage = (continued = true) => {
    page = document.addPage(pageSize);
    pages.push(page);
    y = pageSize[1] - margin;
    write(`${text.title} · ${monthName} · ${masked}`, margin, { size: 9, color: muted });
    y -= 26;
    tableHeading(continued);
  };
  const table = (rows: MonthStatement['rows'], empty: string) => {
    y -= 18;
    // A heading with no room for a row under it goes to the next page.
    if (y < footerTop + 60) newPage(false);
    else tableHeading(false);
    if (rows.length === 0) {
      write(empty, margin, { color: muted });
      y -= rowHeight;
    }
    for (const row of rows) {
      if (y < footerTop + rowHeight) newPage();
      write(formatDay(new Date(row.at), locale), columns.date);
      write(fitted(safe(text.kind(row.kind, row.counterparty)), fonts.regular, 10, descriptionWidth), columns.description);
      write(formatSignedDollars(row.amount, locale), columns.amount, { alignRight: true });
      y -= rowHeight;
    }
  };
  table(statement.rows, text.noTransactions);
  if (statement.pending.length > 0) {
    heading = statement.inProgress ? text.pendingNow : text.pendingAtMonthEnd;
    table(statement.pending, '');
  }
  if (y < footerTop + 40) newPage();
  y -= 8;
  paragraph(text.pendingNote, 8);

  // The partner bank and the page number at the foot of every page.
  const issuedBy = safe(text.issuedBy(partnerBank.name, partnerBankAddress));
  pages.forEach((footPage, index) => {
    page = footPage;
    y = footerTop - 24;
    page.drawLine({ start: { x: margin, y: footerTop - 10 }, end: { x: right, y: footerTop - 10 }, thickness: 0.5, color: rule });
    write(issuedBy, margin, { size: 8, color: muted });
    y -= 12;
    write(text.page(index + 1, pages.length), right, { size: 8, color: muted, alignRight: true });
  });

  compressContentStreams(document);
  return document.save();
}

/**
 * The pages' content streams compressed with Node's zlib instead of pdf-lib's JavaScript deflate (the
 * same Flate encoding; a quarter of the time a statement took, done natively in a fraction of it).
 */
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

/** The text cut to `width` with "…" when it is longer. */
function fitted(value: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(value, size) <= width) return value;
  // No glyph is narrower than 1.5 pt at this size: a longer cut could never fit.
  let end = Math.min(value.length, Math.ceil(width / 1.5));
  while (end > 0 && font.widthOfTextAtSize(`${value.slice(0, end)}…`, size) > width) end -= 1;
  return `${value.slice(0, end).trimEnd()}…`;
}
