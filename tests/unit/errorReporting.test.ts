/**
 * Error reporting (src/app/errorReporting.ts): what every transport receives, and how the sandbox
 * transport sends it to the card API. What a transport receives is what leaves the device, so
 * nothing secret may be in it.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ErrorReport, ErrorReportBatch } from '../../contract/analytics/types.ts';
import { cardApiErrorTransport, createErrorReporter, type ErrorReportTransport } from '../../src/app/errorReporting.ts';
import { loadRedaction } from '../../src/app/reportRedaction.ts';

// The redaction rules are loaded apart from the first screen (src/app/reportRedaction.ts); here they are in.
beforeAll(() => loadRedaction());

const at = new Date('2026-11-20T15:00:00.000Z');
const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTEiLCJleHAiOjE3OTk5OTk5OTl9.c2lnbmF0dXJlLWJ5dGVz';
const cardNumber = '4111 1111 1111 1111';
const cardNumberDigits = '4111111111111111';
const ssn = '123-45-6789';
const refreshToken = 'r-7f3a9c';

function recorder() {
  const received: ErrorReport[] = [];
  const transport: ErrorReportTransport = (report) => void received.push(report);
  return { received, transport };
}

describe('createErrorReporter', () => {
  it('sends warnings and errors, with their level and time, to every transport', () => {
    const first = recorder();
    const second = recorder();
    const errors = createErrorReporter([first.transport, second.transport], () => at);
    errors.warning('Message from an unknown origin ignored', { origin: 'https://evil.example.test' });
    errors.error('Experiment config failed to load', { reason: 'offline' });
    const expected: ErrorReport[] = [
      { level: 'warning', message: 'Message from an unknown origin ignored', at: at.toISOString(), context: { origin: 'https://evil.example.test' } },
      { level: 'error', message: 'Experiment config failed to load', at: at.toISOString(), context: { reason: 'offline' } },
    ];
    expect(first.received).toEqual(expected);
    expect(second.received).toEqual(expected);
  });

  it('a report without context has an empty context', () => {
    const { received, transport } = recorder();
    createErrorReporter([transport], () => at).warning('No context');
    expect(received[0]!.context).toEqual({});
  });

  it('a transport that throws neither stops the transports after it nor throws to the caller', () => {
    const before = recorder();
    const after = recorder();
    const broken = vi.fn(() => {
      throw new Error('vendor SDK exploded');
    });
    const errors = createErrorReporter([before.transport, broken, after.transport], () => at);
    expect(() => errors.error('Statement failed to load')).not.toThrow();
    expect(() => errors.warning('UNEXPECTED_ERROR from the card API', { path: '/home' })).not.toThrow();
    expect(broken).toHaveBeenCalledTimes(2);
    expect(before.received.map((report) => report.message)).toEqual(['Statement failed to load', 'UNEXPECTED_ERROR from the card API']);
    expect(after.received.map((report) => report.message)).toEqual(['Statement failed to load', 'UNEXPECTED_ERROR from the card API']);
  });

  it('scrubs JWTs, card numbers and SSNs out of the message', () => {
    const { received, transport } = recorder();
    createErrorReporter([transport], () => at).error(
      `Sign-in failed for token ${jwt} with card ${cardNumber} (also ${cardNumberDigits}) and SSN ${ssn}`,
    );
    const sent = JSON.stringify(received);
    for (const secret of [jwt, cardNumber, cardNumberDigits, ssn, '6789', '1111 1111']) expect(sent).not.toContain(secret);
    expect(received[0]!.message).toMatch(/^Sign-in failed for token \[redacted\] with card \[redacted\]/);
  });

  it('scrubs the context: secrets in values, and whole values under sensitive keys', () => {
    const { received, transport } = recorder();
    createErrorReporter([transport], () => at).warning('Unlock failed', {
      refreshToken,
      accessToken: 'a-1',
      note: `bearer ${jwt}`,
      pan: cardNumberDigits,
      detail: `ssn ${ssn}`,
      path: '/home',
      statusCode: 5,
    });
    const sent = JSON.stringify(received);
    for (const secret of [refreshToken, 'a-1', jwt, cardNumberDigits, ssn]) expect(sent).not.toContain(secret);
    expect(received[0]!.context).toEqual({
      refreshToken: '[redacted]',
      accessToken: '[redacted]',
      note: 'bearer [redacted]',
      pan: '[redacted]',
      detail: 'ssn [redacted]',
      // What the report is about is kept.
      path: '/home',
      statusCode: 5,
    });
  });

  it('scrubs a card number or SSN given as a number in the context', () => {
    const { received, transport } = recorder();
    createErrorReporter([transport], () => at).error('Activation failed', { entered: Number(cardNumberDigits), typed: 123456789 });
    const sent = JSON.stringify(received);
    expect(sent).not.toContain(cardNumberDigits);
    expect(sent).not.toContain('123456789');
  });

  it('drops context values that are undefined, keeps null, false and 0', () => {
    const { received, transport } = recorder();
    createErrorReporter([transport], () => at).warning('Partial context', {
      origin: undefined,
      httpStatus: null,
      retried: false,
      attempts: 0,
    });
    expect(received[0]!.context).toEqual({ httpStatus: null, retried: false, attempts: 0 });
    expect(Object.keys(received[0]!.context)).not.toContain('origin');
  });

  it('cuts the message to 500 characters', () => {
    const { received, transport } = recorder();
    const errors = createErrorReporter([transport], () => at);
    // Words, not one long run (a run of 32+ letters reads as a token and is redacted whole).
    const long = 'card load failed '.repeat(300);
    const exact = 'ab '.repeat(166) + 'ab';
    errors.error(long);
    errors.error(exact);
    expect(received.map((report) => report.message.length)).toEqual([500, 500]);
    expect(received[0]!.message).toBe(long.slice(0, 500));
    expect(received[1]!.message).toBe(exact);
  });

  it('a secret that straddles the 500-character cut is still scrubbed (redaction happens before the cut)', () => {
    const { received, transport } = recorder();
    createErrorReporter([transport], () => at).error(`${'.'.repeat(490)} ${cardNumberDigits}`);
    expect(received[0]!.message).not.toMatch(/\d{4}/);
  });
});

describe('cardApiErrorTransport', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  function stubFetch() {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ statusCode: 0 }), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    return fetch;
  }
  const bodyOf = (call: unknown[]) => JSON.parse(String((call[1] as RequestInit).body)) as ErrorReportBatch;

  it('batches the reports made in one task into one POST to /api/v1/error-reports, after the task', async () => {
    vi.useFakeTimers();
    const fetch = stubFetch();
    const headers = vi.fn(() => ({ Fingerprint: 'fp-1', 'Device-UUID': 'device-1' }));
    const errors = createErrorReporter([cardApiErrorTransport(headers)], () => at);
    errors.warning('first', { path: '/home' });
    errors.error('second');
    errors.warning('third');
    expect(fetch).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/error-reports');
    expect(init.method).toBe('POST');
    expect(init.headers).toEqual({ 'Content-Type': 'application/json', Fingerprint: 'fp-1', 'Device-UUID': 'device-1' });
    expect(bodyOf(fetch.mock.calls[0]!)).toEqual({
      reports: [
        { level: 'warning', message: 'first', at: at.toISOString(), context: { path: '/home' } },
        { level: 'error', message: 'second', at: at.toISOString(), context: {} },
        { level: 'warning', message: 'third', at: at.toISOString(), context: {} },
      ],
    });
  });

  it('reports made in a later task go in a new POST, with the headers of that moment', async () => {
    vi.useFakeTimers();
    const fetch = stubFetch();
    let device = 'device-1';
    const errors = createErrorReporter([cardApiErrorTransport(() => ({ 'Device-UUID': device }))], () => at);
    errors.warning('one');
    await vi.advanceTimersByTimeAsync(0);
    device = 'device-2';
    errors.warning('two');
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(bodyOf(fetch.mock.calls[1]!).reports.map((report) => report.message)).toEqual(['two']);
    expect((fetch.mock.calls[1] as unknown as [string, RequestInit])[1].headers).toMatchObject({ 'Device-UUID': 'device-2' });
  });

  it('sends what the reporter scrubbed: no secret reaches the request body', async () => {
    vi.useFakeTimers();
    const fetch = stubFetch();
    const errors = createErrorReporter([cardApiErrorTransport(() => ({}))], () => at);
    errors.error(`token ${jwt}`, { refreshToken, card: cardNumberDigits });
    await vi.advanceTimersByTimeAsync(0);
    const body = String((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body);
    for (const secret of [jwt, refreshToken, cardNumberDigits]) expect(body).not.toContain(secret);
  });

  it('never puts more than 20 reports in one POST', async () => {
    vi.useFakeTimers();
    const fetch = stubFetch();
    const errors = createErrorReporter([cardApiErrorTransport(() => ({}))], () => at);
    for (let i = 0; i < 25; i++) errors.warning(`report ${i}`);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalled();
    for (const call of fetch.mock.calls) expect(bodyOf(call).reports.length).toBeLessThanOrEqual(20);
    expect(bodyOf(fetch.mock.calls[0]!).reports.map((report) => report.message).slice(0, 3)).toEqual(['report 0', 'report 1', 'report 2']);
  });

  it('a failed POST is swallowed: nothing is thrown and later reports are still sent', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetch);
    const errors = createErrorReporter([cardApiErrorTransport(() => ({}))], () => at);
    errors.error('one');
    await vi.advanceTimersByTimeAsync(0);
    errors.error('two');
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});

describe('createErrorReporter before the redaction rules have loaded', () => {
  // Fresh modules: nothing has loaded the rules yet, as on a phone that just opened the app.
  async function freshReporter() {
    vi.resetModules();
    const { createErrorReporter: create } = await import('../../src/app/errorReporting.ts');
    const { loadRedaction: load } = await import('../../src/app/reportRedaction.ts');
    const { received, transport } = recorder();
    return { received, errors: create([transport], () => at), load };
  }
  afterEach(() => {
    vi.doUnmock('../../contract/shared/redaction.ts');
    vi.resetModules();
  });

  it('a report waits for the rules and goes scrubbed, with the time it was made', async () => {
    const { received, errors, load } = await freshReporter();
    errors.warning(`Refresh failed for ${jwt}`, { ssn });
    expect(received).toEqual([]);
    await load();
    expect(received).toEqual([{ level: 'warning', message: 'Refresh failed for [redacted]', at: at.toISOString(), context: { ssn: '[redacted]' } }]);
  });

  it('offline before the rules came, a report is lost, never sent unscrubbed, and nothing is thrown', async () => {
    vi.doMock('../../contract/shared/redaction.ts', () => {
      throw new Error('Failed to fetch dynamically imported module');
    });
    const { received, errors, load } = await freshReporter();
    expect(() => errors.error(`Statement failed for ${cardNumber}`)).not.toThrow();
    await expect(load()).rejects.toThrow();
    expect(received).toEqual([]);
  });
});
