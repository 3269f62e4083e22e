/**
 * The sandbox card processor on its own origin (server/partners/processor.ts): the hosted PIN form
 * and the codes its pages post to the app (0 set, -10 used or expired token, -11 replaced token), the
 * card API's commit of a confirmed change, the virtual card's details page (the number, expiry and CVV
 * only there), the card image, and the pages' CSP. Pages are checked with axe (in jsdom: structure,
 * names and labels; colour contrast is for the browser tests) in English and Spanish.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { cards, processorPins, processorTokens } from '../../../server/db/schema/index.ts';
import { buildProcessorServer } from '../../../server/partners/processor.ts';
import { startTestApp, type TestApp } from '../helpers.ts';
import { activePhysicalCard, type Cardholder, cardCall, cardGet, home, newCardholder } from './helpers.ts';

const appOrigin = 'http://localhost:8080';
let t: TestApp;
let processor: FastifyInstance;
let holder: Cardholder;
let physicalId: string;

beforeAll(async () => {
  t = await startTestApp({ env: { COMPANION_ORIGINS: 'http://localhost:8090', PROCESSOR_PORT: '8100' } });
  processor = await buildProcessorServer(t.config, t.db, { appOrigins: [appOrigin, 'http://127.0.0.1:8080'], logger: false });
  holder = await newCardholder(t.app, t.db, 5000);
  physicalId = (await activePhysicalCard(t.app, holder.access)).id;
});
afterAll(async () => {
  await processor?.close();
  await t?.close();
});

const processorOrigin = 'http://localhost:8100';

/** The processor page's address, as the card API hands it out. */
async function pinFormUrl(pin: 'card' | 'atm' = 'card', locale: 'en' | 'es' = 'en', cardId = physicalId) {
  const answer = await cardGet(t.app, holder.access, `/pin-change-form-url?cardId=${cardId}&pin=${pin}&locale=${locale}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return new URL(answer.body.url!);
}

const openPage = async (url: URL) => processor.inject({ method: 'GET', url: `${url.pathname}${url.search}` });

const submit = (path: string, fields: Record<string, string>) =>
  processor.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });

/** The code a result page posts to the app, and the exact origins it posts it to. */
function postedResult(html: string): { code: number; origins: string[] } | null {
  const document = new JSDOM(html).window.document;
  const code = document.querySelector<HTMLMetaElement>('meta[name="processor-result"]')?.content;
  const origins = document.querySelector<HTMLMetaElement>('meta[name="app-origins"]')?.content;
  return code === undefined ? null : { code: Number(code), origins: origins!.split(' ') };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function axeViolations(html: string): Promise<string[]> {
  const dom = new JSDOM(html, { runScripts: 'outside-only', pretendToBeVisual: true });
  dom.window.eval(axeSource);
  const axe = (dom.window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string }[] }> } }).axe;
  const results = await axe.run(dom.window.document, { rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map((violation) => violation.id);
}

describe('axe in jsdom (control)', () => {
  it('finds an input without a label and a page without a language', async () => {
    expect(await axeViolations('<!doctype html><html><head><title>x</title></head><body><main><input></main></body></html>')).toEqual(
      expect.arrayContaining(['html-has-lang', 'label']),
    );
  });
});

describe('the PIN form URL', () => {
  it("is on the processor's own origin with a single-use token, for the caller's physical card in use", async () => {
    const url = await pinFormUrl('atm', 'es');
    expect(url.origin).toBe(processorOrigin);
    expect(url.pathname).toBe('/pin');
    expect(url.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('locale')).toBe('es');
    // The token is stored hashed only.
    const rows = await t.db.select({ hash: processorTokens.tokenHash }).from(processorTokens);
    expect(rows.map((row) => row.hash)).not.toContain(url.searchParams.get('token'));
  });

  it('is refused for a virtual card or a card not yet activated (notAllowed)', async () => {
    const refused = { status: 403, body: { statusCode: StatusCode.NOT_ALLOWED, reason: 'notAllowed' } };
    expect(await cardGet(t.app, holder.access, `/pin-change-form-url?cardId=${holder.virtualCardId}&pin=card`)).toEqual(refused);
    const other = await newCardholder(t.app, t.db, 5000);
    const pending = (await cardCall(t.app, other.access, '/order-card', {}, 'pin-test-order')).body.card!;
    expect(await cardGet(t.app, other.access, `/pin-change-form-url?cardId=${pending.id}&pin=card`)).toEqual(refused);
  });
});

describe('a request the server cannot parse', () => {
  it('answers a URL that does not decode 400 with the CSP, nosniff and no-store, the path not echoed', async () => {
    const answer = await processor.inject({ method: 'GET', url: '/pin/%zz-secret-looking-path' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error: 'bad request' });
    expect(String(answer.headers['content-security-policy'])).toContain(`frame-ancestors ${appOrigin}`);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['permissions-policy']).toBe('camera=(), microphone=(), geolocation=(), payment=()');
    expect(answer.headers['cache-control']).toBe('no-store');
  });
});

describe('the hosted PIN page', () => {
  it('is a labelled form in the asked language, framed only by the app', async () => {
    const page = await openPage(await pinFormUrl('card', 'es'));

    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const document = new JSDOM(page.body).window.document;
    expect(document.documentElement.lang).toBe('es');
    expect(document.querySelector('h1')?.textContent).toBe('Establezca el PIN de su tarjeta');
    expect(document.querySelector('label[for="pin"]')?.textContent).toBe('PIN nuevo (4 dígitos)');
    expect(document.querySelector('label[for="pinConfirm"]')?.textContent).toBe('Escriba el PIN nuevo otra vez');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain(`frame-ancestors ${appOrigin} http://127.0.0.1:8080`);
    expect(csp).not.toMatch(/frame-ancestors[^;]*\*/);
    expect(csp).toContain("script-src 'self'");
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(page.headers['permissions-policy']).toContain('payment=()');
    expect(await axeViolations(page.body)).toEqual([]);
  });

  it.each([
    ['1234', '1234', 'Choose a PIN that is harder to guess'],
    ['1111', '1111', 'Choose a PIN that is harder to guess'],
    ['4321', '4321', 'Choose a PIN that is harder to guess'],
    ['12a4', '12a4', 'Enter exactly 4 digits.'],
    ['2580', '2581', "The two PINs don't match."],
  ])('refuses %s / %s with its reason, announced and tied to the field', async (pin, pinConfirm, reason) => {
    const token = (await pinFormUrl()).searchParams.get('token')!;

    const page = await submit('/pin', { token, locale: 'en', pin, pinConfirm });

    expect(page.statusCode).toBe(422);
    const document = new JSDOM(page.body).window.document;
    expect(document.querySelector('[role="alert"]')?.textContent).toContain(reason);
    expect(document.querySelector('[aria-invalid="true"]')?.getAttribute('aria-describedby')).toContain('pin-problem');
    expect(postedResult(page.body)).toBeNull();
    expect(await axeViolations(page.body)).toEqual([]);
  });

  it('sets the PIN (kept hashed by the processor), posts 0 to the app origins, and the card API records it once, a repeat answered the same', async () => {
    const token = (await pinFormUrl('card')).searchParams.get('token')!;
    expect(await cardCall(t.app, holder.access, '/commit-pin-change', { cardId: physicalId, pin: 'card' })).toEqual({
      status: 403,
      body: { statusCode: StatusCode.NOT_ALLOWED, reason: 'notAllowed' },
    });

    const page = await submit('/pin', { token, locale: 'en', pin: '2580', pinConfirm: '2580' });

    expect(page.statusCode).toBe(200);
    expect(postedResult(page.body)).toEqual({ code: 0, origins: [appOrigin, 'http://127.0.0.1:8080'] });
    expect(await axeViolations(page.body)).toEqual([]);
    const [kept] = await t.db.select().from(processorPins).where(eq(processorPins.cardId, physicalId));
    expect(kept!.pinHash).toMatch(/^scrypt\$/);
    expect(kept!.pinHash).not.toContain('2580');

    expect(await cardCall(t.app, holder.access, '/commit-pin-change', { cardId: physicalId, pin: 'card' })).toEqual({ status: 200, body: { statusCode: 0 } });
    const [card] = await t.db.select().from(cards).where(eq(cards.id, physicalId));
    expect(card!.pinChangedAt).toBeInstanceOf(Date);
    // The same call again (the app sends it again when the first answer was lost): the same answer, the
    // change recorded once, at its first confirmation. The ATM PIN was not changed.
    expect(await cardCall(t.app, holder.access, '/commit-pin-change', { cardId: physicalId, pin: 'card' })).toEqual({ status: 200, body: { statusCode: 0 } });
    const [again] = await t.db.select().from(cards).where(eq(cards.id, physicalId));
    expect(again!.pinChangedAt).toEqual(card!.pinChangedAt);
    const confirmations = await t.db.select().from(processorTokens).where(sql`${processorTokens.cardId} = ${physicalId} and ${processorTokens.committedAt} is not null`);
    expect(confirmations).toHaveLength(1);
    expect((await cardCall(t.app, holder.access, '/commit-pin-change', { cardId: physicalId, pin: 'atm' })).status).toBe(403);
    // Another cardholder cannot commit it.
    const stranger = await newCardholder(t.app, t.db, 0);
    expect((await cardCall(t.app, stranger.access, '/commit-pin-change', { cardId: physicalId, pin: 'card' })).status).toBe(404);
  });

  it('takes a repeat of the commit only within the 15 minutes the first one had', async () => {
    const token = (await pinFormUrl('card')).searchParams.get('token')!;
    await submit('/pin', { token, locale: 'en', pin: '1357', pinConfirm: '1357' });
    expect((await cardCall(t.app, holder.access, '/commit-pin-change', { cardId: physicalId, pin: 'card' })).status).toBe(200);
    // 16 minutes later (this card's earlier changes too).
    await t.db
      .update(processorTokens)
      .set({ completedAt: sql`${processorTokens.completedAt} - interval '16 minutes'` })
      .where(sql`${processorTokens.cardId} = ${physicalId} and ${processorTokens.completedAt} is not null`);
    expect(await cardCall(t.app, holder.access, '/commit-pin-change', { cardId: physicalId, pin: 'card' })).toEqual({
      status: 403,
      body: { statusCode: StatusCode.NOT_ALLOWED, reason: 'notAllowed' },
    });
  });

  it('answers -10 for a used token (the page opened again after the PIN was set)', async () => {
    const url = await pinFormUrl('atm');
    const token = url.searchParams.get('token')!;
    await submit('/pin', { token, locale: 'en', pin: '7391', pinConfirm: '7391' });

    expect(postedResult((await openPage(url)).body)?.code).toBe(-10);
    expect(postedResult((await submit('/pin', { token, locale: 'en', pin: '7391', pinConfirm: '7391' })).body)?.code).toBe(-10);
  });

  it('answers -10 for an expired or unknown token', async () => {
    const url = await pinFormUrl();
    await t.db.update(processorTokens).set({ expiresAt: sql`now() - interval '1 second'` }).where(sql`${processorTokens.cardId} = ${physicalId}`);

    const expired = await openPage(url);
    expect(postedResult(expired.body)?.code).toBe(-10);
    expect(new JSDOM(expired.body).window.document.querySelector('h1')?.textContent).toBe('This page has expired.');
    expect(postedResult((await openPage(new URL(`${processorOrigin}/pin?token=unknown`))).body)?.code).toBe(-10);
  });

  it('answers -11 when a newer form for the same card and PIN replaced it', async () => {
    const older = await pinFormUrl('card');
    const newer = await pinFormUrl('card');

    expect(postedResult((await openPage(older)).body)?.code).toBe(-11);
    const token = older.searchParams.get('token')!;
    expect(postedResult((await submit('/pin', { token, locale: 'en', pin: '2580', pinConfirm: '2580' })).body)?.code).toBe(-11);
    expect(postedResult((await openPage(newer)).body)).toBeNull();
  });

  it('has sandbox buttons that answer -10 and -11 on demand, in Spanish too', async () => {
    const expiredToken = (await pinFormUrl('card', 'es')).searchParams.get('token')!;
    const expired = await submit('/pin/simulate', { token: expiredToken, locale: 'es', result: '-10' });
    expect(postedResult(expired.body)?.code).toBe(-10);
    expect(new JSDOM(expired.body).window.document.querySelector('h1')?.textContent).toBe('Esta página venció.');

    const changedToken = (await pinFormUrl('card')).searchParams.get('token')!;
    expect(postedResult((await submit('/pin/simulate', { token: changedToken, locale: 'en', result: '-11' })).body)?.code).toBe(-11);

    // The card details' token is not a PIN form's: the buttons leave it unspent.
    const details = new URL((await cardGet(t.app, holder.access, `/card/details-url/${holder.virtualCardId}`)).body.url!);
    await submit('/pin/simulate', { token: details.searchParams.get('token')!, locale: 'en', result: '-10' });
    expect((await openPage(details)).statusCode).toBe(200);
  });

  it('answers a malformed request 400, never 5xx', async () => {
    for (const [method, url, payload] of [
      ['GET', '/pin', undefined],
      ['GET', '/pin?token=%00%01', undefined],
      ['POST', '/pin', 'token=a&token=b&pin=1&pinConfirm=1'],
      ['POST', '/pin', 'pin=2580'],
      ['POST', '/pin/simulate', 'token=abc&result=0'],
    ] as const) {
      const response = await processor.inject({ method, url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, ...(payload && { payload }) });
      expect(response.statusCode, `${method} ${url} ${payload}`).toBe(400);
      expect(response.body).toBe('Bad request');
    }
  });

  it('says a malformed request or an unknown address in the language asked for, else the browser\'s', async () => {
    const spanishBrowser = { 'accept-language': 'es-US,es;q=0.9' };
    expect((await processor.inject({ method: 'GET', url: '/pin?locale=es' })).body).toBe('Solicitud no válida');
    expect((await processor.inject({ method: 'GET', url: '/pin', headers: spanishBrowser })).body).toBe('Solicitud no válida');
    expect((await processor.inject({ method: 'GET', url: '/pin?locale=en', headers: spanishBrowser })).body).toBe('Bad request');
    expect((await processor.inject({ method: 'GET', url: '/no-such-page', headers: spanishBrowser })).body).toBe('No se encontró la página');
    expect((await processor.inject({ method: 'GET', url: '/no-such-page' })).body).toBe('Not found');
  });
});

describe('the virtual card details page', () => {
  it("shows the virtual card's number, expiry and CVV, once; the card API's answers never hold them", async () => {
    const answer = await cardGet(t.app, holder.access, `/card/details-url/${holder.virtualCardId}`);
    const url = new URL(answer.body.url!);
    expect(url.origin).toBe(processorOrigin);
    // A HEAD (a link preview, a prefetch) answers no page and spends nothing.
    const head = await processor.inject({ method: 'HEAD', url: `${url.pathname}${url.search}` });
    expect(head.statusCode).toBe(404);
    expect(head.headers['content-security-policy']).toContain("frame-ancestors");

    const page = await openPage(url);

    expect(page.statusCode).toBe(200);
    const values = [...new JSDOM(page.body).window.document.querySelectorAll('dd')].map((dd) => dd.textContent!);
    const [pan, expiry, cvv] = [values[0]!.replace(/ /g, ''), values[1]!, values[2]!];
    expect(pan).toMatch(/^\d{16}$/);
    expect(pan.endsWith('1234')).toBe(true);
    expect(luhnValid(pan)).toBe(true);
    expect(expiry).toBe(holder.virtualCardExpiry);
    expect(cvv).toMatch(/^\d{3}$/);
    expect(await axeViolations(page.body)).toEqual([]);
    // Single use.
    expect((await openPage(url)).statusCode).toBe(410);
    // Never in the card API's JSON or tables.
    expect(JSON.stringify(await home(t.app, holder.access))).not.toContain(pan);
    const rows = await t.db.execute(sql`select row_to_json(c)::text as row from cards c`);
    expect(JSON.stringify(rows)).not.toContain(pan);
  });

  it('speaks the language the app asks for', async () => {
    const answer = await cardGet(t.app, holder.access, `/card/details-url/${holder.virtualCardId}?locale=es`);
    const url = new URL(answer.body.url!);
    expect(url.searchParams.get('locale')).toBe('es');
    const page = new JSDOM((await openPage(url)).body).window.document;
    expect(page.documentElement.lang).toBe('es');
    expect(page.querySelector('h1')?.textContent).toBe('Su tarjeta virtual');
    expect((await cardGet(t.app, holder.access, `/card/details-url/${holder.virtualCardId}?locale=fr`)).status).toBe(400);
  });

  it('is only for the caller\'s virtual card (a physical card: notAllowed)', async () => {
    expect(await cardGet(t.app, holder.access, `/card/details-url/${physicalId}`)).toEqual({
      status: 403,
      body: { statusCode: StatusCode.NOT_ALLOWED, reason: 'notAllowed' },
    });
  });
});

describe('the card image', () => {
  it('is an SVG on the processor origin with a signed address; a blocked card has none', async () => {
    const answer = await cardGet(t.app, holder.access, `/card/image-url/${holder.virtualCardId}`);
    const url = new URL(answer.body.url!);
    expect(url.origin).toBe(processorOrigin);

    const image = await openPage(url);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toMatch(/^image\/svg\+xml/);
    // The app's page shows it, from another origin; the processor's pages are its own.
    expect(image.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(image.body).toContain('<title>Providers virtual debit card ending in 1234</title>');
    expect(image.body).toContain('>VIRTUAL DEBIT CARD</text>');
    const forged = new URL(url);
    forged.searchParams.set('sig', 'forged');
    expect((await openPage(forged)).statusCode).toBe(404);
    // Signed until when it says: a later time written in is refused, and a day on the link is spent.
    const extended = new URL(url);
    extended.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 86_400));
    expect((await openPage(extended)).statusCode).toBe(404);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 24 * 3_600_000 + 1_000 });
    try {
      expect((await openPage(url)).statusCode).toBe(404);
    } finally {
      vi.useRealTimers();
    }

    const inSpanish = await cardGet(t.app, holder.access, `/card/image-url/${holder.virtualCardId}?locale=es`);
    const spanishImage = await openPage(new URL(inSpanish.body.url!));
    expect(spanishImage.body).toContain('<title>Tarjeta de débito virtual Providers terminada en 1234</title>');
    expect(spanishImage.body).toContain('>TARJETA DE DÉBITO VIRTUAL</text>');
    expect(spanishImage.body).not.toMatch(/debit card/i);
    expect(String(spanishImage.headers.vary)).toMatch(/accept-language/i);

    const other = await newCardholder(t.app, t.db, 5000);
    const card = await activePhysicalCard(t.app, other.access);
    await cardCall(t.app, other.access, '/card/report-lost-stolen', { id: card.id, status: 'LOST' });
    expect(await cardGet(t.app, other.access, `/card/image-url/${card.id}`)).toEqual({ status: 200, body: { statusCode: 0, url: '' } });
  });
});

function luhnValid(pan: string): boolean {
  const sum = [...pan].reverse().reduce((total, digit, i) => {
    const value = Number(digit) * (i % 2 === 1 ? 2 : 1);
    return total + (value > 9 ? value - 9 : value);
  }, 0);
  return sum % 10 === 0;
}
