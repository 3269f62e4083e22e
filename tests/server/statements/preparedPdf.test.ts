/**
 * `npm start` loads the statement PDF code and its fonts once it listens, and writes one statement
 * nobody receives (server/main.ts, prepareStatementPdf), so the first statement asked for after a
 * start waits for neither: after it, a statement reads no font file, and the fonts are read once per
 * process however many ask at once. Counted by the reads of the font files, not by the clock.
 */
import { describe, expect, it, vi } from 'vitest';
import type { MonthStatement } from '../../../server/features/statements/index.ts';
import { pdfText } from '../../support/pdfText.ts';

const fontReads: string[] = [];
vi.mock('node:fs/promises', async (original) => {
  const fs = await original<typeof import('node:fs/promises')>();
  const readFile = (async (...args: Parameters<typeof fs.readFile>) => {
    if (String(args[0]).includes('dejavu-fonts-ttf')) fontReads.push(String(args[0]).replace(/^.*\//, ''));
    return fs.readFile(...args);
  }) as typeof fs.readFile;
  return { ...fs, readFile, default: { ...fs, readFile } };
});

const statement: MonthStatement = {
  month: '2025-01',
  openingBalance: 10_000,
  credits: 61_240,
  debits: 1_234,
  fees: 0,
  closingBalance: 70_006,
  cardholderName: 'María Peña',
  prn: '400012345678',
  rows: [
    { id: 'deposit', at: Date.UTC(2025, 0, 3), kind: 'deposit', counterparty: 'Sunrise Home Care', amount: 61_240 },
    { id: 'purchase', at: Date.UTC(2025, 0, 9), kind: 'purchase', counterparty: 'Save Mart', amount: -1_234 },
  ],
  pending: [],
  asOf: new Date(Date.UTC(2025, 0, 31, 23, 59, 59, 999)),
  inProgress: false,
};

describe('the statement PDF code loaded ahead', () => {
  it('reads both fonts once, and a statement after it reads none', async () => {
    const { prepareStatementPdf } = await import('../../../server/features/statements/index.ts');
    expect(fontReads).toEqual([]);

    await Promise.all([prepareStatementPdf(), prepareStatementPdf()]);
    expect(fontReads.sort()).toEqual(['DejaVuSans-Bold.ttf', 'DejaVuSans.ttf']);

    const { statementPdf } = await import('../../../server/features/statements/pdf.ts');
    const text = await pdfText(await statementPdf(statement, 'es'));
    expect(text).toContain('Sunrise Home Care');
    expect(text).toContain('$700.06');
    expect(fontReads).toHaveLength(2);
  });
});
