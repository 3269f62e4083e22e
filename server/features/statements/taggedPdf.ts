/**
 * A tagged PDF for screen readers (PDF/UA-1, ISO 14289-1, as the Matterhorn Protocol checks it),
 * written with pdf-lib's low-level objects, since pdf-lib itself writes untagged PDFs. A reader of a
 * tagged PDF reads its structure tree (headings, paragraphs, tables with their header cells) instead
 * of guessing from where the text lies on the page, and skips what is marked as an artifact (rules,
 * running headers, page numbers).
 *
 * StructureTree keeps the tree: `element` adds a structure element (its /P, /K and, once it has
 * content, /Pg); `begin(page, element)` answers the operator that opens a marked-content sequence
 * (`/Role <</MCID n>> BDC`) whose content belongs to that element, recording the MCID in the element's
 * /K and in the page's entry of the /ParentTree (each page with content gets its /StructParents key);
 * `artifact(kind)` opens an /Artifact sequence instead; `end()` closes either (EMC). The catalog gets
 * /MarkInfo << /Marked true >> and the /StructTreeRoot. pdfUaMetadata writes the document's title,
 * author, subject and language in the Info dictionary and in an XMP /Metadata stream that says
 * pdfuaid:part 1, and asks viewers to show the title.
 */
import {
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFName,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';

/** The standard structure types a statement uses. */
export type StructureRole = 'Document' | 'H1' | 'H2' | 'P' | 'Table' | 'TR' | 'TH' | 'TD';

/**
 * What an artifact is: a running header or a footer, another pagination artifact (a table's heading
 * and header row repeated on the page it continues on), or layout (a rule).
 */
export type ArtifactKind = 'header' | 'footer' | 'pagination' | 'layout';

export type StructureElement = { readonly role: PDFName; readonly ref: PDFRef; readonly dict: PDFDict; readonly kids: PDFArray; page?: PDFRef };

/** A header cell's attributes: the header of its row or of its column. */
export const headerOf = (scope: 'Row' | 'Column') => ({ O: 'Table', Scope: scope });

/** The names an element is made of, made once: a statement has some 2,000 elements. */
const names = Object.fromEntries(
  ['Type', 'StructElem', 'S', 'P', 'K', 'Pg', 'A', 'Document', 'H1', 'H2', 'Table', 'TR', 'TH', 'TD'].map((name) => [name, PDFName.of(name)]),
) as Record<'Type' | 'StructElem' | 'S' | 'P' | 'K' | 'Pg' | 'A' | StructureRole, PDFName>;

const endMarkedContent = PDFOperator.of(PDFOperatorNames.EndMarkedContent);

/** `tag properties BDC`, the properties an inline dictionary (pdf-lib writes a string argument as it is). */
const beginMarkedContent = (tag: PDFName, properties: string) => PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [tag, properties]);

const artifacts: Record<ArtifactKind, PDFOperator> = {
  header: beginMarkedContent(PDFName.of('Artifact'), '<</Type /Pagination /Subtype /Header>>'),
  footer: beginMarkedContent(PDFName.of('Artifact'), '<</Type /Pagination /Subtype /Footer>>'),
  pagination: beginMarkedContent(PDFName.of('Artifact'), '<</Type /Pagination>>'),
  layout: beginMarkedContent(PDFName.of('Artifact'), '<</Type /Layout>>'),
};

export class StructureTree {
  /** The root element, `Document`: every other element is under it. */
  readonly document: StructureElement;
  private readonly context: PDFDocument['context'];
  private readonly root: PDFDict;
  /** The parent tree's number-tree entries: each page's key, then the elements of its MCIDs in order. */
  private readonly nums: PDFArray;
  private readonly pages = new Map<PDFPage, { key: number; parents: PDFArray }>();

  constructor(document: PDFDocument) {
    const { context, catalog } = document;
    this.context = context;
    this.nums = context.obj([]);
    this.root = context.obj({ Type: 'StructTreeRoot', K: context.obj([]), ParentTree: context.obj({ Nums: this.nums }), ParentTreeNextKey: 0 });
    const rootRef = context.register(this.root);
    catalog.set(PDFName.of('StructTreeRoot'), rootRef);
    catalog.set(PDFName.of('MarkInfo'), context.obj({ Marked: true }));
    this.document = this.newElement('Document', rootRef);
    (this.root.get(PDFName.of('K')) as PDFArray).push(this.document.ref);
  }

  /** A new element of `role` under `parent`, after its other kids (the tree's order is the reading order). */
  element(role: StructureRole, parent: StructureElement, attributes?: Record<string, string>): StructureElement {
    const element = this.newElement(role, parent.ref, attributes);
    parent.kids.push(element.ref);
    return element;
  }

  /** Opens a marked-content sequence on `page` whose content belongs to `element`. */
  begin(page: PDFPage, element: StructureElement): PDFOperator {
    const { context } = this;
    let entry = this.pages.get(page);
    if (!entry) {
      entry = { key: this.pages.size, parents: context.obj([]) };
      this.pages.set(page, entry);
      this.nums.push(PDFNumber.of(entry.key));
      this.nums.push(context.register(entry.parents));
      this.root.set(PDFName.of('ParentTreeNextKey'), PDFNumber.of(this.pages.size));
      page.node.set(PDFName.of('StructParents'), PDFNumber.of(entry.key));
      page.node.set(PDFName.of('Tabs'), PDFName.of('S'));
    }
    const mcid = entry.parents.size();
    entry.parents.push(element.ref);
    if (!element.page) {
      element.page = page.ref;
      element.dict.set(names.Pg, page.ref);
    }
    element.kids.push(element.page === page.ref ? PDFNumber.of(mcid) : context.obj({ Type: 'MCR', Pg: page.ref, MCID: mcid }));
    return beginMarkedContent(element.role, `<</MCID ${mcid}>>`);
  }

  /** Opens an artifact: content a reader skips. */
  artifact(kind: ArtifactKind): PDFOperator {
    return artifacts[kind];
  }

  /** Closes the sequence `begin` or `artifact` opened. */
  end(): PDFOperator {
    return endMarkedContent;
  }

  private newElement(role: StructureRole, parent: PDFRef, attributes?: Record<string, string>): StructureElement {
    const kids = PDFArray.withContext(this.context);
    const dict = PDFDict.withContext(this.context);
    dict.set(names.Type, names.StructElem);
    dict.set(names.S, names[role]);
    dict.set(names.P, parent);
    dict.set(names.K, kids);
    if (attributes) dict.set(names.A, this.context.obj(attributes));
    return { role: names[role], ref: this.context.register(dict), dict, kids };
  }
}

/** Characters XML gives a meaning to, escaped. */
const xml = (text: string) => text.replace(/[&<>"]/g, (character) => `&#${character.codePointAt(0)};`);

/** What made the file, in its Info dictionary and its XMP metadata alike. */
const creatorTool = 'Providers card';
const producer = 'pdf-lib (https://github.com/Hopding/pdf-lib)';

/**
 * The document's title, author, subject, language, tools and dates in its Info dictionary and its XMP
 * metadata (which says it conforms to PDF/UA-1), the same in both, as ISO 16684-1 readers compare them;
 * viewers show the title rather than the file's name.
 */
export function pdfUaMetadata(document: PDFDocument, info: { title: string; author: string; subject: string; language: string; issued: Date }) {
  document.setTitle(info.title, { showInWindowTitleBar: true });
  document.setAuthor(info.author);
  document.setSubject(info.subject);
  document.setLanguage(info.language);
  document.setCreator(creatorTool);
  document.setProducer(producer);
  // Info's dates have whole seconds (D:YYYYMMDDHHmmSSZ): XMP's say the same instant.
  const issued = new Date(Math.floor(info.issued.getTime() / 1000) * 1000);
  document.setCreationDate(issued);
  document.setModificationDate(issued);
  const date = issued.toISOString().replace('.000Z', 'Z');
  const xmp = `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/">
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${xml(info.title)}</rdf:li></rdf:Alt></dc:title>
   <dc:creator><rdf:Seq><rdf:li>${xml(info.author)}</rdf:li></rdf:Seq></dc:creator>
   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">${xml(info.subject)}</rdf:li></rdf:Alt></dc:description>
   <dc:language><rdf:Bag><rdf:li>${xml(info.language)}</rdf:li></rdf:Bag></dc:language>
   <xmp:CreatorTool>${creatorTool}</xmp:CreatorTool>
   <xmp:CreateDate>${date}</xmp:CreateDate>
   <xmp:ModifyDate>${date}</xmp:ModifyDate>
   <xmp:MetadataDate>${date}</xmp:MetadataDate>
   <pdf:Producer>${xml(producer)}</pdf:Producer>
   <pdfuaid:part>1</pdfuaid:part>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
  const { context, catalog } = document;
  // Uncompressed, in UTF-8 (pdf-lib's string streams keep one byte per UTF-16 unit).
  catalog.set(PDFName.of('Metadata'), context.register(context.stream(new TextEncoder().encode(xmp), { Type: 'Metadata', Subtype: 'XML' })));
}
