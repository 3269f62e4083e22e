/** The Spanish catalogue is complete and really Spanish (npm test extracts messages first). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fees, type FeeName } from '../../contract/shared/fees.ts';
import { statementText } from '../../server/features/statements/statementText.ts';

type Entry = { id: string; translation: string; obsolete: boolean };

function readCatalog(locale: string): Entry[] {
  const text = readFileSync(`locales/${locale}/messages.po`, 'utf8');
  const entries: Entry[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const obsolete = /^#~/m.test(block);
    const id = block.match(/^(?:#~ )?msgid "(.*)"$/m);
    const str = block.match(/^(?:#~ )?msgstr "(.*)"((?:\n(?:#~ )?".*")*)/m);
    if (!id || !str) continue;
    const continuation = (str[2] ?? '').split('\n').map((line) => line.replace(/^(#~ )?"(.*)"$/, '$2')).join('');
    entries.push({ id: id[1]!, translation: str[1]! + continuation, obsolete });
  }
  return entries.filter((entry) => entry.id !== '');
}

describe('Spanish catalogue', () => {
  const spanish = readCatalog('es');

  it('has messages to check', () => {
    expect(spanish.length).toBeGreaterThan(20);
  });

  it('translates every message', () => {
    expect(spanish.filter((entry) => entry.translation.trim() === '').map((entry) => entry.id)).toEqual([]);
  });

  it('is not English copied (beyond names and symbols)', () => {
    const copied = spanish.filter((entry) => /[a-z]{3}/i.test(entry.id) && entry.translation === entry.id);
    expect(copied.map((entry) => entry.id)).toEqual([]);
  });

  it('keeps no obsolete messages', () => {
    expect(spanish.filter((entry) => entry.obsolete).map((entry) => entry.id)).toEqual([]);
  });
});

describe("the statement's fee names (server/features/statements/statementText.ts)", () => {
  const spanish = new Map(readCatalog('es').map((entry) => [entry.id, entry.translation]));

  it.each(Object.keys(fees) as FeeName[])("says the %s fee as the app does, in both languages", (name) => {
    const english = statementText.en.kind('fee', name).replace(/^Fee: /, '');
    expect(english, 'a name, not the code').not.toBe(name);
    expect(spanish.get(english), `the app's catalogue has "${english}"`).toBeDefined();
    expect(statementText.es.kind('fee', name)).toBe(`Cargo: ${spanish.get(english)}`);
  });
});
