/**
 * Every call of spec §7, and what is left: a call marked built must have its route table entry, its
 * server route and a client function that calls it through the table (src/ names the entry);
 * pending calls are listed so this file shows what remains.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Feature, routeTables } from '../../contract/routes.ts';
import type { HttpStatus, Route } from '../../contract/shared/route.ts';
import { startTestApp, type TestApp } from '../server/helpers.ts';

type SpecCall = {
  method: 'GET' | 'POST';
  /** As the server serves it. */
  address: string;
  /** Spec §7's expected non-2xx status, when it names one. */
  expected?: HttpStatus;
} & ({ built: Feature } | { pending: string });

const post = (address: string, feature: Feature | { pending: string }, expected?: HttpStatus): SpecCall => ({
  method: 'POST',
  address: `/api/v1${address}`,
  ...(typeof feature === 'string' ? { built: feature } : feature),
  ...(expected ? { expected } : {}),
});
const get = (address: string, feature: Feature | { pending: string }): SpecCall => ({
  method: 'GET',
  address: address.startsWith('/cms') ? address : `/api/v1${address}`,
  ...(typeof feature === 'string' ? { built: feature } : feature),
});
const money = { pending: 'money' };
const benefits = { pending: 'benefits' };
const account = { pending: 'account' };
const content = { pending: 'content' };
const settings = { pending: 'settings' };

/** Spec §7, in its order. */
export const specCalls: SpecCall[] = [
  post('/sign-in', 'session'),
  post('/providers/sign-in', 'session'),
  post('/sign-out', 'session'),
  post('/reset-password', 'session'),
  post('/commit-pin-change', 'cards'),
  post('/create-ticket', account),
  post('/set-push-setting', settings),
  post('/update-phone-number', account),
  post('/set-unlock-code', 'account'),
  post('/reset-unlock-code', 'session'),
  post('/refresh-tokens', 'session', 401),
  post('/register', 'identity', 403),
  post('/verify/card-last-four', 'cards'),
  post('/activate-card', 'cards', 403),
  post('/request-verification', 'identity'),
  post('/verify-phone', 'identity'),
  post('/verify-address', 'identity'),
  post('/verify/email', 'identity'),
  post('/verify/ssn', 'identity'),
  post('/verify/ssn/logged-in', account),
  post('/verify/ssn/logged-in-refresh-token', 'identity'),
  post('/change-password', 'session'),
  // Beyond spec §7 (hardening): the agreements' texts, readable before anyone agrees.
  get('/agreement', 'identity'),
  // Beyond spec §7 (hardening): the password reset's texted code, checked before the SSN.
  post('/verify/reset-code', 'session'),
  post('/card/freeze', 'cards'),
  post('/card/unfreeze', 'cards'),
  post('/ebt-spend-rewards/claim', benefits),
  post('/accept-agreement', 'identity'),
  post('/atomic/access-token', money),
  post('/one-time-message/ack', account),
  post('/direct-deposit/form', money),
  post('/can-update-phone', account),
  post('/phone-number-in-use', 'identity'),
  post('/update-address', account),
  post('/order-card', 'cards'),
  get('/statements', 'statements'),
  // Beyond spec §7: a month's statement as a PDF, in the reader's language (spec §2 /statements).
  get('/statement', 'statements'),
  // Spec §2 /transactions and §3 transaction, whose call spec §7 leaves unnamed ("getStatements … not shown"):
  // the activity list a page at a time, and one transaction for its detail.
  get('/transactions', 'activity'),
  get('/transaction', 'activity'),
  get('/pin-change-form-url', 'cards'),
  get('/home', 'home'),
  get('/user', 'account'),
  get('/card/image-url/{id}', 'cards'),
  // Beyond spec §7 (cards): lost or stolen, a damaged card's replacement, the virtual card's details page.
  post('/card/report-lost-stolen', 'cards'),
  post('/card/replace', 'cards'),
  get('/card/details-url/{id}', 'cards'),
  get('/push-settings', settings),
  get('/cash-load-locations', benefits),
  get('/address-location', benefits),
  get('/accepted-agreement', 'identity'),
  get('/snapback', benefits),
  get('/direct-deposit', money),
  // The content GETs: served, but the app's content client is not built yet.
  get('/cms/config/{key}', content),
  get('/cms/preview/{token}', content),
  // "Other": the remote experiment config, analytics, and the sandbox's error-report intake.
  get('/experiments', 'experiments'),
  post('/analytics/events', 'analytics'),
  post('/error-reports', 'analytics'),
];

const entries: [Feature, Route][] = Object.entries(routeTables).flatMap(([feature, table]) =>
  Object.values(table as Record<string, Route>).map((route) => [feature as Feature, route] as [Feature, Route]),
);
const addressOf = (route: Route) => `${route.base}${route.path}`;
const entryFor = (call: SpecCall) => entries.find(([, route]) => route.method === call.method && addressOf(route) === call.address);

/** The web app's sources: a client function calls an entry through its table (`identity.register`, `analyticsRoutes.sendErrorReports`). */
function sourcesOf(folder: string): string {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((file) => file.isFile() && /\.tsx?$/.test(file.name))
    .map((file) => readFileSync(path.join(file.parentPath, file.name), 'utf8'))
    .join('\n');
}
const clientSources = sourcesOf(path.join(import.meta.dirname, '..', '..', 'src'));

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const built = specCalls.filter((call): call is SpecCall & { built: Feature } => 'built' in call);
const pending = specCalls.filter((call): call is SpecCall & { pending: string } => 'pending' in call);

describe('spec §7 calls marked built', () => {
  it.each(built.map((call) => ({ ...call, name: `${call.method} ${call.address}` })))('$name has its table entry, server route and client function', ({ method, address, built: feature, expected }) => {
    const entry = entryFor({ method, address, built: feature });
    expect(entry, 'route table entry').toBeDefined();
    const [owner, route] = entry!;
    expect(owner).toBe(feature);
    if (expected) expect(route.answers[expected], `expected ${expected}`).toBeDefined();
    expect(t.app.hasRoute({ method, url: address.replace(/\{(\w+)\}/g, ':$1') }), 'server route').toBe(true);
    expect(clientSources, 'client function').toMatch(new RegExp(`\\b(${feature}|${feature}Routes)\\.${route.name}\\b`));
  });
});

describe('the list', () => {
  it('names every route table entry', () => {
    const listed = entries.filter(([, route]) => specCalls.some((call) => call.method === route.method && call.address === addressOf(route)));
    expect(listed.map(([, route]) => route.name)).toEqual(entries.map(([, route]) => route.name));
  });

  it.each(pending.map((call) => ({ ...call, name: `${call.method} ${call.address}` })))(
    '$name is pending ($pending): not yet entry, server route and client function together',
    ({ method, address }) => {
      const entry = entryFor({ method, address, pending: '' });
      const served = t.app.hasRoute({ method, url: address.replace(/\{(\w+)\}/g, ':$1') });
      const called = entry !== undefined && new RegExp(`\\b(${entry[0]}|${entry[0]}Routes)\\.${entry[1].name}\\b`).test(clientSources);
      // Once all three exist, the call is built: mark it so.
      expect(entry !== undefined && served && called).toBe(false);
    },
  );
});
