/**
 * The statement PDF is accessible as PDF/UA-1 (ISO 14289-1) asks and the Matterhorn Protocol checks:
 * read with pdfjs-dist as a screen reader's PDF library reads it, every text on every page belongs to
 * the structure tree (a Document of a heading, paragraphs and tables whose header cells say their
 * scope) or is an artifact; and read with pdf-lib, the file is marked tagged, has a parent tree, its
 * title and language, XMP metadata that says PDF/UA-1, and embedded fonts with ToUnicode maps, which
 * write Spanish, Greek and Cyrillic as they are and what they lack as "?".
 */
import { PDFArray, PDFBool, PDFDict, PDFDocument, PDFFont, PDFHexString, PDFName, PDFNumber, PDFRawStream, type PDFRef, PDFStream, decodePDFRawStream } from 'pdf-lib';
import type { StructTreeNode, TextItem, TextMarkedContent } from 'pdfjs-dist/types/src/display/api';
import { describe, expect, it, vi } from 'vitest';
import type { TransactionKind } from '../../../contract/activity/types.ts';
import { partnerBank, partnerBankAddress } from '../../../contract/shared/partnerBank.ts';
import type { MonthStatement } from '../../../server/features/statements/index.ts';
import { statementPdf } from '../../../server/features/statements/pdf.ts';
import { embedStatementFonts, writableText } from '../../../server/features/statements/statementFonts.ts';
import { formatDollars } from '../../../server/features/statements/statementText.ts';
import { pdfInfo, pdfPages, pdfText, withPdfDocument } from '../../support/pdfText.ts';

const monthStart = Date.UTC(2025, 0, 1);
const row = (index: number, kind: TransactionKind, counterparty: string | null, amount: number) => ({
  id: `row-${index}`,
  at: monthStart + (index % 27) * 86_400_000 + index * 1000,
  kind,
  counterparty,
  location: kind === 'purchase' ? 'Fresno, CA' : null,
  amount,
});
const merchants = ['Save Mart', 'Dollar General', 'Walgreens', 'Food 4 Less', 'Chevron'];

/** January 2025, closed: `count` transactions (a deposit every 25th), `extra` rows last, and two holds pending at its end. */
function january(count: number, extra: MonthStatement['rows'] = []): MonthStatement {
  const rows = [
    ...Array.from({ length: count }, (_, index) =>
      index % 25 === 0 ? row(index, 'deposit', 'Sunrise Home Care', 61_240) : row(index, 'purchase', merchants[index % 5]!, -(500 + (index % 40) * 37)),
    ),
    ...extra,
  ];
  const credits = rows.filter((each) => each.amount > 0).reduce((sum, each) => sum + each.amount, 0);
  const debits = rows.filter((each) => each.amount < 0).reduce((sum, each) => sum - each.amount, 0);
  return {
    month: '2025-01',
    openingBalance: 10_000,
    credits,
    debits,
    fees: 0,
    feesThisYear: 0,
    closingBalance: 10_000 + credits - debits,
    cardholderName: 'María Peña',
    prn: '400012345678',
    rows,
    pending: [row(900, 'purchase', 'Valero', -1_234), row(901, 'purchase', 'Target', -999)],
    asOf: new Date(Date.UTC(2025, 0, 31, 23, 59, 59, 999)),
    inProgress: false,
  };
}

type Marks = { tags: (string | null)[]; id: string | null };
type Page = {
  /** Each text item with the tags of the marked-content sequences around it and the innermost MCID's id. */
  texts: { text: string; marks: Marks }[];
  tree: StructTreeNode;
};

/** What a screen reader's PDF library reads of each page: its text in its marked content, and its structure tree. */
function readPages(bytes: Uint8Array): Promise<Page[]> {
  return withPdfDocument(bytes, async (document) => {
    const pages: Page[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      const { items } = await page.getTextContent({ includeMarkedContent: true });
      const stack: { tag: string | null; id: string | null }[] = [];
      const texts: Page['texts'] = [];
      // pdfjs says each marked-content sequence's tag too (its types leave it out).
      for (const item of items as (TextItem | (TextMarkedContent & { tag?: string }))[]) {
        if ('str' in item) {
          if (item.str.trim()) texts.push({ text: item.str, marks: { tags: stack.map((mark) => mark.tag), id: stack.findLast((mark) => mark.id)?.id ?? null } });
        } else if (item.type === 'endMarkedContent') stack.pop();
        else stack.push({ tag: item.tag ?? null, id: item.type === 'beginMarkedContentProps' ? (item.id ?? null) : null });
      }
      expect(stack, `page ${number}: every marked-content sequence is closed`).toEqual([]);
      pages.push({ texts, tree: await page.getStructTree() });
    }
    return pages;
  });
}

type Node = StructTreeNode | { type: string; id: string };
const isElement = (node: Node): node is StructTreeNode => 'role' in node;
/** Each content id of `tree` with the roles of the elements above it, outermost first. */
function contents(tree: StructTreeNode, roles: string[] = []): { id: string; roles: string[] }[] {
  return tree.children.flatMap((child: Node) =>
    isElement(child) ? contents(child, [...roles, child.role]) : child.type === 'content' ? [{ id: child.id, roles }] : [],
  );
}

/** The tagged text of a page in the structure tree's order, each piece with its roles. */
function taggedText(page: Page): { text: string; roles: string[] }[] {
  return contents(page.tree).map(({ id, roles }) => ({
    text: page.texts
      .filter((text) => text.marks.id === id)
      .map((text) => text.text)
      .join(''),
    roles: roles.filter((role) => role !== 'Root'),
  }));
}

const artifactTexts = (page: Page) => page.texts.filter((text) => text.marks.tags.includes('Artifact')).map((text) => text.text);

describe('the statement PDF, as a screen reader reads it (pdfjs-dist)', () => {
  it('puts every text of every page of a 500-row statement in the structure tree or in an artifact', async () => {
    const statement = january(500);
    const pages = await readPages(await statementPdf(statement, 'en'));
    expect(pages.length).toBeGreaterThan(10);

    for (const [index, page] of pages.entries()) {
      const ids = new Set(contents(page.tree).map((content) => content.id));
      expect(ids.size, `page ${index + 1} has tagged content`).toBeGreaterThan(0);
      for (const { text, marks } of page.texts) {
        const artifact = marks.tags.includes('Artifact');
        expect(artifact || (marks.id !== null && ids.has(marks.id)), `page ${index + 1}: "${text}" is tagged or an artifact`).toBe(true);
        expect(artifact && marks.id !== null, `"${text}" is not both`).toBe(false);
      }
      // And every piece of content the tree names is on the page.
      for (const id of ids) expect(page.texts.some((text) => text.marks.id === id), `${id} is drawn`).toBe(true);
      // Each page's running parts are artifacts: its page number and, but on the last page, the bank's name.
      expect(artifactTexts(page)).toContain(`Page ${index + 1} of ${pages.length}`);
      if (index > 0) expect(artifactTexts(page)).toContain('Monthly statement · January 2025 · ••••5678');
      // The table goes on over the pages between: its heading and header row again, as artifacts.
      if (index > 0 && index < pages.length - 1) expect(artifactTexts(page).slice(1, 5)).toEqual(['Transactions (continued)', 'Date', 'Description', 'Amount']);
    }

    // The bank is read once, as the last paragraph.
    const tagged = pages.flatMap(taggedText);
    const issuedBy = `Your Providers card account is issued by ${partnerBank.name}, ${partnerBankAddress}.`;
    expect(tagged.filter((piece) => piece.text === issuedBy)).toEqual([{ text: issuedBy, roles: ['Document', 'P'] }]);
    expect(tagged.at(-1)).toEqual({ text: issuedBy, roles: ['Document', 'P'] });
    for (const page of pages.slice(0, -1)) expect(artifactTexts(page)).toContain(issuedBy);

    // In reading order: the brand, the title (the one H1), the month, then the account's table.
    expect(tagged.slice(0, 5)).toEqual([
      { text: 'Providers', roles: ['Document', 'P'] },
      { text: 'Monthly statement', roles: ['Document', 'H1'] },
      { text: 'January 2025', roles: ['Document', 'P'] },
      { text: 'Cardholder', roles: ['Document', 'Table', 'TR', 'TH'] },
      { text: 'María Peña', roles: ['Document', 'Table', 'TR', 'TD'] },
    ]);
    expect(tagged.filter((piece) => piece.roles.at(-1) === 'H1')).toHaveLength(1);
    expect(tagged.filter((piece) => piece.roles.at(-1) === 'H2').map((piece) => piece.text)).toEqual(['Summary', 'Transactions', 'Pending at the end of the month']);
    const closing = tagged.findIndex((piece) => piece.text === 'Closing balance');
    expect(tagged.slice(closing, closing + 2)).toEqual([
      { text: 'Closing balance', roles: ['Document', 'Table', 'TR', 'TH'] },
      { text: formatDollars(statement.closingBalance, 'en'), roles: ['Document', 'Table', 'TR', 'TD'] },
    ]);
    // The transactions' header row is tagged once; every transaction is a row of three cells.
    expect(tagged.filter((piece) => piece.text === 'Description').map((piece) => piece.roles)).toEqual([
      ['Document', 'Table', 'TR', 'TH'],
      ['Document', 'Table', 'TR', 'TH'],
    ]);
    expect(tagged.filter((piece) => piece.roles.at(-1) === 'TD' && piece.text.startsWith('Purchase at '))).toHaveLength(480 + 2);
    expect(tagged.filter((piece) => piece.roles.at(-1) === 'TD')).toHaveLength(4 + 6 + (500 + 2) * 3);
    // A continued page's rows are in the tree too, under their table.
    expect(taggedText(pages[5]!).filter((piece) => piece.roles.join('/') === 'Document/Table/TR/TD').length).toBeGreaterThan(100);
  });

  it('says what the app reads from it (e2e/statements.spec.ts): the title, the month, the closing balance after its label', async () => {
    const statement = january(12);
    const bytes = await statementPdf(statement, 'en');
    const text = await pdfText(bytes);
    expect(text).toContain('Monthly statement');
    expect(text).toContain('January 2025');
    expect(text).toMatch(new RegExp(`Closing balance\\s+${formatDollars(statement.closingBalance, 'en').replace(/[$.]/g, '\\$&')}`));
    expect(text).toContain('••••5678');
    expect(text).toContain(partnerBank.name);
    expect(await pdfInfo(bytes)).toEqual({ numPages: 1, title: 'Monthly statement: January 2025', language: 'en-US' });
  });

  it('writes a wrapped line with the space it ends on, so a screen reader keeps the words apart (ISO 32000-1 §14.8.2.5)', async () => {
    // pdfjs drops a text's trailing space, so the strings are read as the page's text operators get them.
    const note =
      'Los movimientos pendientes no se incluyen en los saldos. Los que el comercio complete se incluyen en el estado de cuenta del mes en que se completen; los que se liberen nunca se incluyen, ya que no se descontó dinero por ellos.';
    const written = vi.spyOn(PDFFont.prototype, 'encodeText');
    try {
      await statementPdf(january(3), 'es');
      const lines = written.mock.calls.map(([text]) => text).filter((text) => text.trim() && note.includes(text.trim()));
      expect(lines.length, 'the note is wrapped').toBeGreaterThan(1);
      expect(lines.join('')).toBe(note);
    } finally {
      written.mockRestore();
    }
  });

  it('says a month without transactions in a paragraph under its heading, with no table of headers only', async () => {
    const pages = await readPages(await statementPdf({ ...january(0), pending: [] }, 'es'));
    const tagged = pages.flatMap(taggedText);
    const heading = tagged.findIndex((piece) => piece.text === 'Movimientos');
    expect(tagged.slice(heading, heading + 2)).toEqual([
      { text: 'Movimientos', roles: ['Document', 'H2'] },
      { text: 'No hubo movimientos este mes.', roles: ['Document', 'P'] },
    ]);
    expect(tagged.filter((piece) => piece.text === 'Descripción')).toEqual([]);
  });

  it('starts a page with the table heading only when rows go on there', async () => {
    let noteAlone = 0;
    for (let count = 18; count <= 30; count += 1) {
      const pages = await readPages(await statementPdf({ ...january(count), pending: [] }, 'en'));
      // The case this is about: the rows end at the foot of a page and the note goes on alone.
      if (pages.length > 1 && !taggedText(pages.at(-1)!).some((piece) => piece.roles.at(-1) === 'TD')) noteAlone += 1;
      for (const [index, page] of pages.entries()) {
        if (!artifactTexts(page).includes('Transactions (continued)')) continue;
        const rows = taggedText(page).filter((piece) => piece.roles.at(-1) === 'TD');
        expect(rows.length, `${count} rows, page ${index + 1}: a continued table has rows`).toBeGreaterThan(0);
      }
    }
    expect(noteAlone, 'some of these months put the note alone on the last page').toBeGreaterThan(0);
  });

  it("writes Spanish, Greek and Cyrillic as they are, in the reader's language; what the fonts lack as \"?\"", async () => {
    const statement = january(3, [
      row(10, 'purchase', 'Café Ωmega Москва', -1_500),
      row(11, 'purchase', '¿Qué tal? Ñandú Ünïcode', -2_000),
      row(12, 'purchase', 'Ramen 東京 🍜', -3_000),
      row(13, 'refund', 'Señor Frog’s — “Pescadería”', 700),
    ]);
    const bytes = await statementPdf(statement, 'es');
    const text = await pdfText(bytes);
    for (const words of [
      'Estado de cuenta mensual',
      'Número de cuenta',
      'Período del estado de cuenta',
      'María Peña',
      'Compra en Café Ωmega Москва, Fresno, CA',
      'Compra en ¿Qué tal? Ñandú Ünïcode, Fresno, CA',
      'Compra en Ramen ?? ?',
      'Reembolso de Señor Frog’s — “Pescadería”',
      'Página 1 de 1',
    ]) {
      expect(text).toContain(words);
    }
    expect(await pdfInfo(bytes)).toEqual({ numPages: 1, title: 'Estado de cuenta mensual: enero de 2025', language: 'es-US' });
    const tagged = (await readPages(bytes)).flatMap(taggedText);
    expect(tagged.find((piece) => piece.text.includes('Ωmega'))).toEqual({ text: 'Compra en Café Ωmega Москва, Fresno, CA', roles: ['Document', 'Table', 'TR', 'TD'] });
    expect(tagged.filter((piece) => piece.roles.at(-1) === 'H2').map((piece) => piece.text)).toEqual(['Resumen', 'Movimientos', 'Pendientes al cierre del mes']);
  });

  it('says money in and out with the signs its rows have, the fees of the month and of the year so far, and where each transaction happened', async () => {
    const atm = { ...row(11, 'atm_withdrawal', null, -4_000), location: 'Blackstone Ave, Fresno, CA' };
    const statement = { ...january(0, [row(10, 'deposit', 'Fresno County DSS', 5_000), atm, row(12, 'fee', 'atmWithdrawalOutOfNetwork', -350)]), fees: 350, feesThisYear: 1_250 };
    const text = (await pdfText(await statementPdf(statement, 'en'))).replace(/\s+/g, ' ');
    for (const words of [
      'Credits (money in) +$50.00',
      'Debits (money out) -$43.50',
      'Fees (included in debits) -$3.50',
      'Fees in 2025 through this month -$12.50',
      'ATM withdrawal, Blackstone Ave, Fresno, CA -$40.00',
      // A fee happened nowhere: no place after it.
      'Fee: ATM withdrawal, out of network -$3.50',
    ]) {
      expect(text).toContain(words);
    }
    const empty = (await pdfText(await statementPdf({ ...january(0), pending: [] }, 'es'))).replace(/\s+/g, ' ');
    for (const words of ['Créditos (dinero que entró) $0.00', 'Débitos (dinero que salió) $0.00', 'Cargos en 2025 hasta este mes $0.00']) expect(empty).toContain(words);
  });

  it('puts where a transaction happened on a line of its own when both do not fit on one: never cut off', async () => {
    const fee = { ...row(11, 'fee', 'atmWithdrawalOutOfNetwork', -350), location: 'Shields Ave, Fresno, CA' };
    const long = { ...row(12, 'purchase', 'Sunrise Community Market and Pharmacy of the Central Valley', -500), location: 'Blackstone Ave, Fresno, CA' };
    const bytes = await statementPdf(january(0, [fee, long]), 'es');
    const text = (await pdfText(bytes)).replace(/\s+/g, ' ');
    expect(text).toContain('Cargo: Retiro en cajero automático, fuera de la red Shields Ave, Fresno, CA');
    expect(text).toContain('Blackstone Ave, Fresno, CA');
    // Read whole, with its comma, as one cell.
    const { elements, named } = await objects(bytes);
    const said = elements('TD').map((cell) => (named(cell, 'ActualText') as PDFHexString | undefined)?.decodeText()).filter(Boolean);
    expect(said).toContain('Cargo: Retiro en cajero automático, fuera de la red, Shields Ave, Fresno, CA');
  });

  it('cuts a long description between characters, never inside one', async () => {
    const pages = await pdfPages(await statementPdf(january(1, [row(10, 'purchase', '😀'.repeat(80), -100)]), 'en'));
    const cut = pages[0]!.split(' ').find((word) => word.startsWith('😀'))!;
    expect(cut).toMatch(/^(?:😀)+…$/u);
  });

  it('cuts a long description as long as its column allows, a letter keeping its mark', async () => {
    // "q̃" has no precomposed form: a q and a combining tilde, which DejaVu draws with no width.
    const pages = await pdfPages(await statementPdf(january(1, [row(10, 'purchase', 'q\u0303'.repeat(200), -100)]), 'en'));
    const cut = pages[0]!.split(' ').find((word) => word.startsWith('q'))!;
    expect(cut).toMatch(/^(?:q\u0303)+…$/u);
    // "Purchase at " and about 46 q's of 6.3 pt fill the column's 360 pt.
    expect(cut.length).toBeGreaterThan(2 * 40);
  });
});

/** The objects of a saved PDF, read back with pdf-lib. */
async function objects(bytes: Uint8Array) {
  const document = await PDFDocument.load(bytes, { updateMetadata: false });
  const { context } = document;
  const all = context.enumerateIndirectObjects().map(([, object]) => object);
  const dicts = all.filter((object): object is PDFDict => object instanceof PDFDict);
  const named = (dict: PDFDict, key: string) => dict.lookup(PDFName.of(key));
  const elements = (role: string) => dicts.filter((dict) => named(dict, 'S') === PDFName.of(role));
  return { document, context, all, dicts, named, elements };
}

describe('the statement PDF, as a PDF/UA checker reads it (pdf-lib)', () => {
  it('is marked tagged, with a structure tree, a parent tree, its title, its language and XMP metadata saying PDF/UA-1', async () => {
    const { document, context, named, elements, dicts } = await objects(await statementPdf(january(500), 'es'));
    const { catalog } = document;
    expect((named(catalog, 'MarkInfo') as PDFDict).lookup(PDFName.of('Marked'))).toBe(PDFBool.True);
    expect(named(catalog, 'Lang')?.toString()).toBe('(es-US)');
    expect((named(catalog, 'ViewerPreferences') as PDFDict).lookup(PDFName.of('DisplayDocTitle'))).toBe(PDFBool.True);
    expect(document.getTitle()).toBe('Estado de cuenta mensual: enero de 2025');

    const metadata = named(catalog, 'Metadata') as PDFRawStream;
    expect(metadata.dict.lookup(PDFName.of('Subtype'))).toBe(PDFName.of('XML'));
    const xmp = new TextDecoder().decode(metadata.contents);
    expect(xmp).toMatch(/<pdfuaid:part>1<\/pdfuaid:part>|pdfuaid:part="1"/);
    expect(xmp).toContain('xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/"');
    expect(xmp).toContain('<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Estado de cuenta mensual: enero de 2025</rdf:li></rdf:Alt></dc:title>');
    expect(xmp).toContain('<rdf:li>es-US</rdf:li>');
    expect(xmp).toContain('Número de cuenta ••••5678');
    // What Info says, XMP says too (ISO 16684-1 readers and PDF checkers compare them).
    const infoDate = (date: Date | undefined) => date!.toISOString().replace('.000Z', 'Z');
    const xmpField = (name: string) => xmp.match(new RegExp(`<${name}>([^<]*)</${name}>`))?.[1];
    expect(xmpField('xmp:CreateDate')).toBe(infoDate(document.getCreationDate()));
    expect(xmpField('xmp:ModifyDate')).toBe(infoDate(document.getModificationDate()));
    expect(xmpField('xmp:CreatorTool')).toBe(document.getCreator());
    expect(document.getCreator()).toBe('Providers card');
    expect(xmpField('pdf:Producer')).toBe(document.getProducer());
    expect(xmp).toContain('xmlns:xmp="http://ns.adobe.com/xap/1.0/"');
    expect(xmp).toContain('xmlns:pdf="http://ns.adobe.com/pdf/1.3/"');

    const root = named(catalog, 'StructTreeRoot') as PDFDict;
    expect(root.lookup(PDFName.of('Type'))).toBe(PDFName.of('StructTreeRoot'));
    const [documentElement] = elements('Document');
    expect((root.lookup(PDFName.of('K')) as PDFArray).asArray().map((ref) => context.lookup(ref))).toEqual([documentElement]);
    // Every page has its key in the parent tree, which names, for each of its MCIDs, the element it belongs to.
    const nums = ((root.lookup(PDFName.of('ParentTree')) as PDFDict).lookup(PDFName.of('Nums')) as PDFArray).asArray();
    const pages = document.getPages();
    expect(nums.length).toBe(pages.length * 2);
    expect((root.lookup(PDFName.of('ParentTreeNextKey')) as PDFNumber).asNumber()).toBe(pages.length);
    for (const [index, page] of pages.entries()) {
      const key = (page.node.lookup(PDFName.of('StructParents')) as PDFNumber).asNumber();
      expect(key).toBe(index);
      expect((nums[index * 2] as PDFNumber).asNumber()).toBe(key);
      const parents = (context.lookup(nums[index * 2 + 1]) as PDFArray).asArray();
      for (const [mcid, parent] of parents.entries()) {
        const element = context.lookup(parent) as PDFDict;
        const kids = (element.lookup(PDFName.of('K')) as PDFArray).asArray();
        const onPage = element.get(PDFName.of('Pg')) === page.ref;
        expect(
          kids.some((kid) =>
            kid instanceof PDFNumber
              ? onPage && kid.asNumber() === mcid
              : kid instanceof PDFDict && kid.get(PDFName.of('Pg')) === page.ref && (kid.lookup(PDFName.of('MCID')) as PDFNumber).asNumber() === mcid,
          ),
          `page ${index + 1}, MCID ${mcid}`,
        ).toBe(true);
      }
    }

    // Every element has its parent, and is among its parent's kids.
    const structElements = dicts.filter((dict) => named(dict, 'Type') === PDFName.of('StructElem'));
    for (const element of structElements) {
      const parent = named(element, 'P') as PDFDict;
      const siblings = (parent.lookup(PDFName.of('K')) as PDFArray).asArray().map((kid) => context.lookup(kid));
      expect(siblings).toContain(element);
    }
    // Tables are made of rows of header and data cells; header cells say whose header they are.
    const tables = elements('Table');
    expect(tables).toHaveLength(4);
    const roleOf = (ref: unknown) => (context.lookup(ref as PDFRef) as PDFDict).lookup(PDFName.of('S'))?.toString();
    for (const table of tables) {
      const rows = (table.lookup(PDFName.of('K')) as PDFArray).asArray();
      expect(rows.every((kid) => roleOf(kid) === '/TR')).toBe(true);
      for (const tableRow of rows) {
        const cells = ((context.lookup(tableRow) as PDFDict).lookup(PDFName.of('K')) as PDFArray).asArray().map(roleOf);
        expect(cells.length === 2 || cells.length === 3, cells.join()).toBe(true);
        expect(cells.every((cell) => cell === '/TH' || cell === '/TD')).toBe(true);
      }
    }
    // The transactions' table spans the pages: one Table of 500 rows and its header row.
    expect(tables.map((table) => (table.lookup(PDFName.of('K')) as PDFArray).size())).toEqual([4, 6, 501, 3]);
    const headers = elements('TH');
    expect(headers).toHaveLength(4 + 6 + 3 + 3);
    for (const header of headers) {
      const attributes = header.lookup(PDFName.of('A')) as PDFDict;
      expect(attributes.lookup(PDFName.of('O'))).toBe(PDFName.of('Table'));
      expect([PDFName.of('Row'), PDFName.of('Column')]).toContain(attributes.lookup(PDFName.of('Scope')));
    }
    expect(elements('TH').filter((header) => (header.lookup(PDFName.of('A')) as PDFDict).lookup(PDFName.of('Scope')) === PDFName.of('Column'))).toHaveLength(6);
  });

  it('draws nothing outside marked content: text in a tagged sequence or an artifact, rules in artifacts', async () => {
    const { document, context } = await objects(await statementPdf(january(120), 'en'));
    const painting = new Set(['Tj', 'TJ', "'", '"', 'S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*', 'Do', 'sh', 'BI']);
    for (const [index, page] of document.getPages().entries()) {
      const contents = page.node.Contents();
      const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => context.lookup(ref)) : [contents];
      const lines = streams.flatMap((stream) => new TextDecoder().decode(decodePDFRawStream(stream as PDFRawStream).decode()).split('\n'));
      let depth = 0;
      const painted = { tagged: 0, artifact: 0 };
      let artifact = false;
      for (const line of lines) {
        const operator = line.trim().split(/\s+/).at(-1)!;
        if (operator === 'BDC' || operator === 'BMC') {
          expect(depth, `page ${index + 1}: marked content is not nested`).toBe(0);
          depth += 1;
          artifact = line.startsWith('/Artifact');
        } else if (operator === 'EMC') depth -= 1;
        else if (painting.has(operator)) {
          expect(depth, `page ${index + 1}: "${line}" is marked`).toBe(1);
          painted[artifact ? 'artifact' : 'tagged'] += 1;
        }
      }
      expect(depth).toBe(0);
      expect(painted.tagged).toBeGreaterThan(0);
      expect(painted.artifact).toBeGreaterThan(0);
    }
  });

  it('embeds every font it uses as a subset named as such, with its font file and a ToUnicode map (no standard font)', async () => {
    const { context, dicts, named } = await objects(await statementPdf(january(40, [row(99, 'purchase', 'Café Ωmega Москва', -100)]), 'en'));
    const fonts = dicts.filter((dict) => named(dict, 'Type') === PDFName.of('Font'));
    const top = fonts.filter((font) => named(font, 'Subtype') === PDFName.of('Type0'));
    expect(top).toHaveLength(2);
    expect(fonts).toHaveLength(4);
    const toUnicode: string[] = [];
    const subsetTags: string[] = [];
    for (const font of top) {
      expect(named(font, 'ToUnicode')).toBeInstanceOf(PDFStream);
      toUnicode.push(new TextDecoder().decode(decodePDFRawStream(named(font, 'ToUnicode') as PDFRawStream).decode()));
      const [descendant] = (named(font, 'DescendantFonts') as PDFArray).asArray();
      const cidFont = (descendant instanceof PDFDict ? descendant : context.lookup(descendant)) as PDFDict;
      expect(named(cidFont, 'Subtype')).toBe(PDFName.of('CIDFontType2'));
      expect(named(cidFont, 'CIDToGIDMap')).toBe(PDFName.of('Identity'));
      const descriptor = named(cidFont, 'FontDescriptor') as PDFDict;
      const fontFile = named(descriptor, 'FontFile2') as PDFRawStream;
      expect(fontFile).toBeInstanceOf(PDFStream);
      // Its length before compression, required for a TrueType font file (ISO 32000-1 Table 127).
      expect(named(fontFile.dict, 'Length1')).toEqual(PDFNumber.of(decodePDFRawStream(fontFile).decode().length));
      // A subset's name: six uppercase letters, "+", the font's name (ISO 32000-1 9.6.4), the same in the font and its descriptor.
      expect(String(named(descriptor, 'FontName'))).toMatch(/^\/[A-Z]{6}\+DejaVuSans(-Bold)?$/);
      expect(String(named(cidFont, 'BaseFont'))).toBe(String(named(descriptor, 'FontName')));
      subsetTags.push(String(named(descriptor, 'FontName')).slice(1, 7));
    }
    expect(new Set(subsetTags).size, 'each subset its own tag').toBe(2);
    // Ω (U+03A9) and М (U+041C) read as themselves.
    expect(toUnicode.join()).toMatch(/<[0-9a-f]{4}> <03a9>/i);
    expect(toUnicode.join()).toMatch(/<[0-9a-f]{4}> <041c>/i);
    // Each font dictionary is the Type0 font or its descendant: none is an unembedded standard font.
    for (const font of fonts) expect([PDFName.of('Type0'), PDFName.of('CIDFontType2')]).toContain(named(font, 'Subtype'));
  });

  it('gives a description cut to its column, or written with "?", its whole text for a screen reader (ActualText); others none', async () => {
    const long = `Sunrise Community Market and Pharmacy of the Central Valley, ${'Store '.repeat(20)}#1234`;
    const { elements, named } = await objects(
      await statementPdf(
        january(2, [
          // A direction override and a zero-width joiner are not text: left out of what is drawn and of what is read.
          row(10, 'purchase', `\u202E${long}`, -100),
          row(11, 'purchase', '北京 Noodle House', -200),
          row(12, 'purchase', 'Corner\u200DStore\u00A0Deli', -300),
        ]),
        'en',
      ),
    );
    const actualTexts = elements('TD')
      .map((cell) => named(cell, 'ActualText'))
      .filter((text) => text !== undefined)
      .map((text) => (text as PDFHexString).decodeText());
    // The masked account number first (its table comes first): said as words, not four dots.
    expect(actualTexts).toEqual(['ending in 5678', `Purchase at ${long}, Fresno, CA`, 'Purchase at 北京 Noodle House, Fresno, CA']);
  });

  it('gives a cardholder name the fonts cannot write (Devanagari, Han) its whole text for a screen reader and a copy', async () => {
    const name = 'José Peña अनिल 王小明';
    const { elements, named } = await objects(await statementPdf({ ...january(1), cardholderName: name }, 'en'));
    const said = elements('TD')
      .map((cell) => named(cell, 'ActualText'))
      .filter((text) => text !== undefined)
      .map((text) => (text as PDFHexString).decodeText());
    expect(said).toEqual([name, 'ending in 5678']);
  });

  it.each([
    ['en', 'ending in 5678'],
    ['es', 'terminado en 5678'],
  ] as const)('gives the masked account number in %s its words for a screen reader: "%s", not "bullet bullet bullet bullet"', async (locale, spoken) => {
    const { elements, named } = await objects(await statementPdf(january(1), locale));
    const cells = elements('TD').filter((cell) => named(cell, 'ActualText') !== undefined);
    expect(cells.map((cell) => (named(cell, 'ActualText') as PDFHexString).decodeText())).toEqual([spoken]);
  });

  it('is the same file for the same month, whatever the process wrote before', async () => {
    const statement = january(60);
    const first = await statementPdf(statement, 'es');
    // Other statements in between, with other characters.
    await statementPdf(january(5, [row(50, 'purchase', 'Ωmega Москва Ærø', -100)]), 'es');
    await statementPdf(january(500), 'en');
    expect(Buffer.from(await statementPdf(statement, 'es')).equals(Buffer.from(first))).toBe(true);
  });

  it('has a file identifier (ISO 32000-1 §14.4): two 16-byte strings, its own for each file (month, language, cardholder)', async () => {
    const idOf = async (statement: MonthStatement, locale: 'en' | 'es') => {
      const id = (await PDFDocument.load(await statementPdf(statement, locale), { updateMetadata: false })).context.trailerInfo.ID;
      expect(id).toBeInstanceOf(PDFArray);
      const parts = (id as PDFArray).asArray().map(String);
      expect(parts).toHaveLength(2);
      for (const part of parts) expect(part).toMatch(/^<[0-9a-f]{32}>$/);
      return parts[0];
    };
    const ids = [
      await idOf(january(10), 'en'),
      await idOf(january(10), 'es'),
      await idOf({ ...january(10), month: '2025-02' }, 'en'),
      // Another cardholder's empty month with the same last 4 and balance.
      await idOf({ ...january(0), pending: [] }, 'en'),
      await idOf({ ...january(0), pending: [], cardholderName: 'Ana Ruiz' }, 'en'),
    ];
    expect(new Set(ids).size).toBe(5);
  });
});

describe('writableText', () => {
  const latin1 = new Set(Array.from({ length: 0x100 }, (_, code) => code));

  it('keeps what the font writes, spaces Intl and line breaks as plain spaces, and leaves out invisible formatting characters', () => {
    expect(writableText('Café Peña ¿sí?', latin1)).toBe('Café Peña ¿sí?');
    expect(writableText('1\u202F234\u00A0$\nnext\tline', latin1)).toBe('1 234 $ next line');
    expect(writableText('a\u200Db\uFE0Fc\u00AD', latin1)).toBe('abc');
    // Combined accents are written as the one letter they make.
    expect(writableText('Cafe\u0301', latin1)).toBe('Café');
  });

  it('writes a letter the font lacks without its accent, anything else as "?"', () => {
    expect(writableText('Łódź Ωmega 東京 🍜', latin1)).toBe('?ódz ?mega ?? ?');
    expect(writableText('Crème brûlée', new Set([...'Crem brulee '].map((character) => character.codePointAt(0)!)))).toBe('Creme brulee');
  });

  it("with DejaVu Sans's own characters: Greek, Cyrillic and Latin's accents, not Chinese or a bowl of ramen", async () => {
    const { regular, bold } = await embedStatementFonts(await PDFDocument.create());
    expect(writableText('Łódź Ωmega Москва Ærø • … –', regular.characters)).toBe('Łódź Ωmega Москва Ærø • … –');
    expect(writableText('東京 🍜', regular.characters)).toBe('?? ?');
    expect(writableText('Москва', bold.characters)).toBe('Москва');
  });
});
