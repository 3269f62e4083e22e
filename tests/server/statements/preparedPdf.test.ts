/**
 * `npm start` loads the statement PDF code and its fonts once it listens, and writes one statement
 * nobody receives (server/main.ts, prepareStatementPdf), so the first statement asked for after a
 * start waits for neither: after it, a statement reads no font file, and the fonts are read once per
 * process however many ask at once. Counted by the reads of the font files, not by the clock, in a
 * process of its own: test files share loaded modules (vitest isolate: false), so here the fonts may
 * already be loaded.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/** Runs in a fresh Node process: every read of a font file is noted (node:fs/promises wrapped before any statement code loads). */
const freshProcess = `
import fs from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
const reads = [];
const readFile = fs.readFile;
fs.readFile = (...args) => {
  if (String(args[0]).includes('dejavu-fonts-ttf')) reads.push(String(args[0]).replace(/^.*[\\\\/]/, ''));
  return readFile(...args);
};
syncBuiltinESMExports();
const statements = process.cwd() + '/server/features/statements/';
const { prepareStatementPdf } = await import(statements + 'index.ts');
await Promise.all([prepareStatementPdf(), prepareStatementPdf()]);
const afterPreparing = [...reads];
const { statementPdf } = await import(statements + 'pdf.ts');
const statement = {
  month: '2025-01', openingBalance: 0, credits: 5000, debits: 0, fees: 0, feesThisYear: 0, closingBalance: 5000,
  cardholderName: 'Ana', prn: '400012345678', pending: [], inProgress: false,
  rows: [{ id: 'deposit', at: Date.UTC(2025, 0, 3), kind: 'deposit', counterparty: 'Sunrise Home Care', amount: 5000 }],
  asOf: new Date(Date.UTC(2025, 0, 31, 23, 59, 59, 999)),
};
const pdf = await statementPdf(statement, 'en');
console.log(JSON.stringify({ afterPreparing, afterStatement: reads, header: Buffer.from(pdf.subarray(0, 5)).toString() }));
`;

describe('the statement PDF code loaded ahead', () => {
  it('reads both fonts once, and a statement after it reads none', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', freshProcess]);
    const { afterPreparing, afterStatement, header } = JSON.parse(stdout) as { afterPreparing: string[]; afterStatement: string[]; header: string };
    expect(afterPreparing.sort()).toEqual(['DejaVuSans-Bold.ttf', 'DejaVuSans.ttf']);
    expect(afterStatement).toHaveLength(2);
    expect(header).toBe('%PDF-');
    // A second Node compiling TypeScript and loading pdf-lib: seconds on a loaded 2-core machine.
  }, 60_000);
});
