/**
 * A month's statement as a PDF (pdf-lib): the title, the cardholder, the masked account number and
 * the period; the month's opening balance, credits, debits, fees, the year's fees so far and closing
 * balance; then every posted transaction, oldest first, with where it happened, and the holds pending
 * at the month's end (or now, while it runs), on as many US Letter pages as it takes; the partner bank's name and address and the page number at
 * the foot of each page. In the reader's language. A month that is over is issued at its end: its
 * date and the file's dates are the month's end, so the same month gives the same file every time.
 *
 * It is made to PDF/UA-1 (ISO 14289-1), for cardholders who read it with a screen reader: tagged
 * (taggedPdf.ts; a heading, paragraphs, tables whose header cells say their row or column, in reading
 * order; rules, the running header, the repeated table headings and the footers are artifacts, and
 * the bank's name and address are read once, on the last page), with its language, its title and
 * embedded fonts (DejaVu Sans, statementFonts.ts). A character those fonts lack (a Chinese name, most
 * emoji) is written without its accent or as "?" (writableText).
 */
import { createHash } from 'node:crypto';
import {
  beginText,
  type Color,
  endText,
  moveText,
  PDFDocument,
  type PDFFont,
  PDFHexString,
  PDFName,
  type PDFPage,
  rgb,
  setFillingColor,
  setFontAndSize,
  showText,
} from 'pdf-lib';
import { partnerBank, partnerBankAddress } from '../../../contract/shared/partnerBank.ts';
import type { StatementLocale } from '../../../contract/statements/types.ts';
import { monthStart, nextMonth } from '../../shared/usMonths.ts';
import type { MonthStatement } from './queries.ts';
import { embedStatementFonts, plainText, writableText } from './statementFonts.ts';
import {
  formatDay,
  formatDollars,
  formatLongDate,
  formatMonth,
  formatSignedDollars,
  maskAccountNumber,
  statementText,
} from './statementText.ts';
import { type ArtifactKind, headerOf, pdfUaMetadata, type StructureElement, type StructureRole, StructureTree } from './taggedPdf.ts';
import { saveWithZlib } from './zlibPdfWriter.ts';

/** US Letter, in points, and the page's layout. */
const pageSize: [number, number] = [612, 792];
const margin = 50;
const right = pageSize[0] - margin;
const footerTop = 72;
const rowHeight = 15;
/** How far under a transaction's line the place it happened goes, when both do not fit on one. */
const placeLine = 12;
const columns = { date: margin, description: margin + 62, amount: right };
const descriptionWidth = right - 90 - columns.description;
const muted = rgb(0.33, 0.36, 0.35);
const black = rgb(0, 0, 0);
const actualText = PDFName.of('ActualText');
const rule = rgb(0.75, 0.78, 0.77);

/**
 * The statement of `statement.month` in `locale`, as PDF bytes. Issued `now` while the month runs, at
 * the month's end (`statement.asOf`) once it is over.
 */
export async function statementPdf(statement: MonthStatement, locale: StatementLocale, now: Date = new Date()): Promise<Uint8Array> {
  const text = statementText[locale];
  const issued = statement.inProgress ? now : statement.asOf;
  const document = await PDFDocument.create();
  const fonts = await embedStatementFonts(document);
  const safe = (value: string, bold = false) => writableText(value, (bold ? fonts.bold : fonts.regular).characters);

  const start = monthStart(statement.month);
  const lastDay = new Date(monthStart(nextMonth(statement.month)).getTime() - 86_400_000);
  const monthName = formatMonth(start, locale);
  const masked = maskAccountNumber(statement.prn);
  pdfUaMetadata(document, {
    title: `${text.title}: ${monthName}`,
    author: 'Providers',
    subject: `${text.accountNumber} ${masked}`,
    language: locale === 'es' ? 'es-US' : 'en-US',
    issued,
  });
  // The file's identifier (ISO 32000-1 §14.4), from all the file says (never the whole account number):
  // the same month gives the same file and identifier; another file, another.
  const { prn: _accountNumber, ...printed } = statement;
  const id = PDFHexString.of(
    createHash('sha256')
      .update(JSON.stringify({ ...printed, masked, locale, issued: issued.toISOString() }))
      .digest('hex')
      .slice(0, 32),
  );
  document.context.trailerInfo.ID = document.context.obj([id, id]);

  // The structure a screen reader reads: every text drawn belongs to an element of it or is an artifact.
  const tree = new StructureTree(document);
  const element = (role: StructureRole, parent = tree.document, attributes?: Record<string, string>) => tree.element(role, parent, attributes);

  const pages: PDFPage[] = [];
  let page = document.addPage(pageSize);
  pages.push(page);
  let y = pageSize[1] - margin;

  /**
   * Text, drawn with the page's own operators: pdf-lib's drawText adds a font resource to the page at
   * every call given a font, and checks and wraps each call in a graphics state, which took most of a
   * statement's time. Font, size and colour persist between text objects: each is set when it changes.
   * The text is the content of `mark`, a structure element, or an artifact.
   */
  const pageStates = new WeakMap<PDFPage, { fontNames: Map<PDFFont, PDFName>; font?: PDFFont; size?: number; color?: Color }>();
  const write = (
    value: string,
    x: number,
    mark: StructureElement | ArtifactKind,
    options: { size?: number; bold?: boolean; color?: Color; alignRight?: boolean } = {},
  ) => {
    const size = options.size ?? 10;
    const font = (options.bold ? fonts.bold : fonts.regular).pdf;
    const color = options.color ?? black;
    const written = safe(value, options.bold);
    const left = options.alignRight ? x - font.widthOfTextAtSize(written, size) : x;
    let state = pageStates.get(page);
    if (!state) pageStates.set(page, (state = { fontNames: new Map() }));
    let fontName = state.fontNames.get(font);
    if (!fontName) state.fontNames.set(font, (fontName = page.node.newFontDictionary(font.name, font.ref)));
    const operators = [typeof mark === 'string' ? tree.artifact(mark) : tree.begin(page, mark), beginText()];
    if (state.color !== color) operators.push(setFillingColor(color));
    if (state.font !== font || state.size !== size) operators.push(setFontAndSize(fontName, size));
    Object.assign(state, { color, font, size });
    operators.push(moveText(left, y), showText(font.encodeText(written)), endText(), tree.end());
    page.pushOperators(...operators);
  };
  /** A rule across the page: layout, or part of the footer. */
  const line = (at: number, kind: ArtifactKind = 'layout') => {
    page.pushOperators(tree.artifact(kind));
    page.drawLine({ start: { x: margin, y: at }, end: { x: right, y: at }, thickness: 0.5, color: rule });
    page.pushOperators(tree.end());
  };
  /**
   * Wraps a paragraph to the page's width: one P, a marked line at a time. A wrapped line keeps the
   * space it ends on (ISO 32000-1 §14.8.2.5): a screen reader joins the lines as they are written.
   */
  const paragraph = (value: string, size: number) => {
    const words = safe(value).split(' ');
    const lines = element('P');
    let current = '';
    for (const word of words) {
      const next = current ? `${current} ${word}` : word;
      if (fonts.regular.pdf.widthOfTextAtSize(next, size) > right - margin && current) {
        write(`${current} `, margin, lines, { size, color: muted });
        y -= size + 4;
        current = word;
      } else current = next;
    }
    if (current) write(current, margin, lines, { size, color: muted });
    y -= size + 4;
  };
  /** A table's row of a label, its row's header cell, and a value. */
  const labelledRow = (
    table: StructureElement,
    label: string,
    value: string,
    { labelColor, valueAt, bold, alignRight, spoken }: { labelColor?: Color; valueAt: number; bold?: boolean; alignRight?: boolean; spoken?: string },
  ) => {
    const row = element('TR', table);
    write(label, margin, element('TH', row, headerOf('Row')), { bold, color: labelColor });
    const cell = element('TD', row);
    // A name in a script the fonts lack is drawn with "?": a screen reader and a copy get it whole.
    const said = spoken ?? (safe(value, bold) === plainText(value) ? undefined : plainText(value));
    if (said) cell.dict.set(actualText, PDFHexString.fromText(said));
    write(value, valueAt, cell, { bold, alignRight });
  };

  // The heading, the account and the period.
  write('Providers', margin, element('P'), { size: 11, bold: true, color: muted });
  y -= 26;
  write(text.title, margin, element('H1'), { size: 20, bold: true });
  y -= 22;
  // On a line of its own the month is a heading: capitalized, as the app's statement headings are ("Noviembre de 2026").
  write(monthName.charAt(0).toUpperCase() + monthName.slice(1), margin, element('P'), { size: 13 });
  y -= 26;
  const period = `${formatLongDate(start, locale)} – ${formatLongDate(lastDay, locale)}`;
  const account = element('Table');
  for (const [label, value, spoken] of [
    [text.cardholder, statement.cardholderName],
    [text.accountNumber, masked, text.endingIn(masked.replace(/^•+/, ''))],
    [text.period, period],
    [text.issued, formatLongDate(issued, locale)],
  ] as const) {
    labelledRow(account, label, value, { labelColor: muted, valueAt: margin + 170, spoken });
    y -= rowHeight;
  }
  if (statement.inProgress) {
    y -= 4;
    paragraph(text.inProgress, 9);
  }
  y -= 4;
  paragraph(text.timeZoneNote, 8);

  // The month's totals.
  y -= 14;
  write(text.summary, margin, element('H2'), { size: 13, bold: true });
  y -= 8;
  line(y);
  y -= rowHeight;
  const summary = element('Table');
  // Money in and out with the signs the transactions have ("+$480.00", "-$23.15", "$0.00"); the fees are money out.
  for (const [label, cents, bold] of [
    [text.openingBalance, formatDollars(statement.openingBalance, locale), false],
    [text.credits, formatSignedDollars(statement.credits, locale), false],
    [text.debits, formatSignedDollars(-statement.debits, locale), false],
    [text.fees, formatSignedDollars(-statement.fees, locale), false],
    [text.feesThisYear(statement.month.slice(0, 4)), formatSignedDollars(-statement.feesThisYear, locale), false],
    [text.closingBalance, formatDollars(statement.closingBalance, locale), true],
  ] as const) {
    // The closing balance is the total: a rule above it.
    if (bold) line(y + rowHeight - 4);
    labelledRow(summary, label, cents, { bold, valueAt: right, alignRight: true });
    y -= rowHeight;
  }

  // Every transaction, a page at a time; then the holds pending. A table continued on another page is
  // the same Table element; its heading and header row repeated there are artifacts.
  let heading = text.transactions;
  let table: StructureElement | undefined;
  const tableHeading = (continued: boolean) => {
    const cell = (row: StructureElement | undefined) => (row ? element('TH', row, headerOf('Column')) : 'pagination');
    let header: StructureElement | undefined;
    if (continued) write(`${heading} (${text.continued})`, margin, 'pagination', { size: 13, bold: true });
    else {
      write(heading, margin, element('H2'), { size: 13, bold: true });
      table = element('Table');
      header = element('TR', table);
    }
    y -= 18;
    write(text.date, columns.date, cell(header), { size: 9, bold: true, color: muted });
    write(text.description, columns.description, cell(header), { size: 9, bold: true, color: muted });
    write(text.amount, columns.amount, cell(header), { size: 9, bold: true, color: muted, alignRight: true });
    y -= 6;
    line(y);
    y -= rowHeight - 2;
  };
  /** A new page under the running header; `table` starts it with the table's heading (`continued` or not). */
  const newPage = (table: { continued: boolean } | null = { continued: true }) => {
    page = document.addPage(pageSize);
    pages.push(page);
    y = pageSize[1] - margin;
    write(`${text.title} · ${monthName} · ${masked}`, margin, 'header', { size: 9, color: muted });
    y -= 26;
    if (table) tableHeading(table.continued);
  };
  const transactions = (rows: MonthStatement['rows'], empty: string) => {
    y -= 18;
    if (rows.length === 0) {
      // No table without rows (a screen reader would announce one of headers only): its heading and what it says.
      if (y < footerTop + 60) newPage(null);
      write(heading, margin, element('H2'), { size: 13, bold: true });
      y -= 18;
      write(empty, margin, element('P'), { color: muted });
      y -= rowHeight;
      return;
    }
    // A heading with no room for a row under it goes to the next page.
    if (y < footerTop + 60) newPage({ continued: false });
    else tableHeading(false);
    for (const row of rows) {
      // What it was, and where it happened, as the terminal reported it (Regulation E §1005.9(b)(1)(iv)):
      // on one line when they fit, else the place on a line of its own under it, so it is never cut off.
      const what = plainText(text.kind(row.kind, row.counterparty));
      const description = row.location ? `${what}, ${plainText(row.location)}` : what;
      const fits = fonts.regular.pdf.widthOfTextAtSize(safe(description), 10) <= descriptionWidth;
      const fit = (line: string, size: number) => fitted(safe(line), fonts.regular.pdf, size, descriptionWidth);
      const lines = fits || !row.location ? [fit(description, 10)] : [fit(what, 10), fit(plainText(row.location), 9)];
      const height = lines.length === 1 ? rowHeight : rowHeight + placeLine;
      if (y < footerTop + height) newPage();
      const tableRow = element('TR', table!);
      write(formatDay(new Date(row.at), locale), columns.date, element('TD', tableRow));
      const cell = element('TD', tableRow);
      // On two lines, cut to its column, or with characters the fonts lack: a screen reader reads it whole (ActualText, ISO 32000-1 §14.9.4).
      if (lines.length > 1 || lines[0] !== description) cell.dict.set(actualText, PDFHexString.fromText(description));
      write(lines[0]!, columns.description, cell);
      if (lines[1]) {
        y -= placeLine;
        write(lines[1], columns.description, cell, { size: 9, color: muted });
        y += placeLine;
      }
      write(formatSignedDollars(row.amount, locale), columns.amount, element('TD', tableRow), { alignRight: true });
      y -= height;
    }
  };
  transactions(statement.rows, text.noTransactions);
  if (statement.pending.length > 0) {
    heading = statement.inProgress ? text.pendingNow : text.pendingAtMonthEnd;
    transactions(statement.pending, '');
  }
  // The note alone on a new page: no table goes on there.
  if (y < footerTop + 40) newPage(null);
  y -= 8;
  paragraph(text.pendingNote, 8);

  // The partner bank and the page number at the foot of every page: read once, as the document's last
  // paragraph on the last page; the other pages' copies and the page numbers are artifacts.
  const issuedBy = text.issuedBy(partnerBank.name, partnerBankAddress);
  pages.forEach((footPage, index) => {
    page = footPage;
    y = footerTop - 24;
    line(footerTop - 10, 'footer');
    write(issuedBy, margin, index === pages.length - 1 ? element('P') : 'footer', { size: 8, color: muted });
    y -= 12;
    write(text.page(index + 1, pages.length), right, 'footer', { size: 8, color: muted, alignRight: true });
  });

  return saveWithZlib(document);
}

/**
 * The text cut to `width` with "…" when it is longer, between characters (never inside a surrogate
 * pair): the longest cut that fits. A cut is never narrower than a shorter one, so the search halves
 * the range each time; DejaVu draws combining marks with no width, so the longest cut keeps a letter's
 * marks with it.
 */
function fitted(value: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(value, size) <= width) return value;
  const characters = [...value];
  const cut = (count: number) => `${characters.slice(0, count).join('').trimEnd()}…`;
  // All the characters do not fit; none does ("…" alone).
  let fits = 0;
  let over = characters.length;
  while (over - fits > 1) {
    const count = (fits + over) >> 1;
    if (font.widthOfTextAtSize(cut(count), size) <= width) fits = count;
    else over = count;
  }
  return cut(fits);
}
