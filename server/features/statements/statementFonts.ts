/**
 * The statement's fonts: DejaVu Sans and DejaVu Sans Bold (dejavu-fonts-ttf, a free licence),
 * embedded as subsets of the glyphs a statement uses, each with its font file and a ToUnicode map, as
 * PDF/UA requires (ISO 14289-1 7.21.4.1, 7.21.7). They write Latin with its accents, Greek, Cyrillic
 * and many symbols; a character they cannot write loses its accent or is written "?" (writableText).
 *
 * The files are read and parsed once per process, with the first statement (as pdf-lib is loaded).
 * pdf-lib's subset embedder asks fontkit to parse the file again for every document (about 60 ms a
 * font, its character list included) and lays out every string it measures or writes with fontkit's
 * OpenType shaper (about 0.15 ms a string, some 300 ms for a 500-row statement). So pdf-lib is given a
 * fontkit of our own (statementFontkit) whose `create` answers the font parsed once, with a `layout`
 * that maps each character to its glyph through the font's character map, remembered per character.
 * Widths are the glyphs' advances, the same ones pdf-lib writes into the font's /W array. No kerning
 * or ligature (Helvetica's text was drawn without either too), nor the shaping Arabic's joined letters
 * need; right-to-left text keeps its logical order. Each laid-out glyph is a record of its own saying
 * the one character it was laid out for, so the ToUnicode map pdf-lib writes from them depends on the
 * document's text only (not on the glyph objects fontkit keeps for the process), and a closed month's
 * file stays the same.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
type Font = ReturnType<Fontkit['create']>;

/** What pdf-lib reads of a laid-out glyph: its id, its advance and the text it stands for. */
type LaidOutGlyph = { id: number; advanceWidth: number; codePoints: number[] };

/**
 * A font as parsed once: its bytes (pdf-lib is given these), the font fontkit answers for them, what it
 * can write, and the name of its subset in a statement.
 */
type LoadedFont = { bytes: Uint8Array; font: Font; characters: ReadonlySet<number>; subsetName: string };

/** A font embedded in one document, with the characters it can write. */
export type StatementFont = { pdf: PDFFont; characters: ReadonlySet<number> };

const fontFile = (name: string) => createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${name}`);

const parsed = new Map<Uint8Array, Font>();

/** The fontkit pdf-lib is given: it answers the statement fonts parsed once, and knows no other. */
const statementFontkit: Fontkit = {
  create(bytes) {
    const font = parsed.get(bytes);
    if (!font) throw new Error('statementFontkit only knows the statement fonts (statementFonts.ts)');
    return font;
  },
};

/** The font with a `layout` of one glyph per character, each character's glyph looked up once. */
function characterLayout(font: Font): Font {
  const glyphs = new Map<number, LaidOutGlyph>();
  const glyphFor = (codePoint: number) => {
    let glyph = glyphs.get(codePoint);
    if (!glyph) {
      const { id, advanceWidth } = font.glyphForCodePoint(codePoint);
      glyphs.set(codePoint, (glyph = { id, advanceWidth, codePoints: [codePoint] }));
    }
    return glyph;
  };
  const layout = (text: string) => {
    const run: LaidOutGlyph[] = [];
    for (const character of text) run.push(glyphFor(character.codePointAt(0)!));
    return { glyphs: run };
  };
  return new Proxy(font, { get: (target, key) => (key === 'layout' ? layout : Reflect.get(target, key, target)) });
}

/**
 * `subsetTag`: a subset's name begins with a tag of exactly six uppercase letters and "+", different for
 * each subset in the file (ISO 32000-1 9.6.4); pdf-lib's own name would end in a number instead. Fixed
 * tags keep a closed month's file the same.
 */
async function loadFont(name: string, subsetTag: string): Promise<LoadedFont> {
  const bytes = new Uint8Array(await readFile(fontFile(name)));
  const font = characterLayout(fontkit.create(bytes) as unknown as Font);
  parsed.set(bytes, font);
  return { bytes, font, characters: new Set(font.characterSet), subsetName: `${subsetTag}+${font.postscriptName ?? name.replace(/\.ttf$/, '')}` };
}

let loading: Promise<{ regular: LoadedFont; bold: LoadedFont }> | undefined;
const loadFonts = async () => {
  const [regular, bold] = await Promise.all([loadFont('DejaVuSans.ttf', 'PRVDRR'), loadFont('DejaVuSans-Bold.ttf', 'PRVDRB')]);
  return { regular, bold };
};

/** DejaVu Sans and DejaVu Sans Bold, embedded in `document` as subsets (read from disk the first time). */
export async function embedStatementFonts(document: PDFDocument): Promise<{ regular: StatementFont; bold: StatementFont }> {
  loading ??= loadFonts().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  const { regular, bold } = await loading;
  document.registerFontkit(statementFontkit);
  const embed = async ({ bytes, characters, subsetName }: LoadedFont) => ({
    pdf: await document.embedFont(bytes, { subset: true, customName: subsetName }),
    characters,
  });
  return { regular: await embed(regular), bold: await embed(bold) };
}

/**
 * Text as a statement says it, whatever its fonts: composed (NFC), Intl's special spaces and line
 * breaks as spaces, invisible formatting characters (variation selectors, joiners, direction
 * overrides) left out.
 */
export const plainText = (text: string): string =>
  text.normalize('NFC').replace(/[\s\u202F\u00A0]/g, ' ').replace(/\p{Default_Ignorable_Code_Point}/gu, '');

/**
 * Text a font can write (`characters`, its character set): the plain text (plainText), a letter the
 * font lacks without its accent when the font has that, anything else as "?".
 */
export function writableText(text: string, characters: ReadonlySet<number>): string {
  let written = '';
  for (const character of plainText(text)) {
    if (characters.has(character.codePointAt(0)!)) {
      written += character;
      continue;
    }
    const base = character.normalize('NFD').replace(/\p{M}/gu, '');
    written += base.length > 0 && [...base].every((part) => characters.has(part.codePointAt(0)!)) ? base : '?';
  }
  return written;
}
