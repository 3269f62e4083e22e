/**
 * A server's wait said in the unit a person reads easily: minutes below two hours, then whole hours,
 * rounded up so the wait named is never shorter than the server's (sign-in's grows to 8 hours) and
 * never half again as long.
 */
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { render } from '@testing-library/react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { activateLocale } from '../../src/shared/i18n/locale.ts';
import { TooManyCodesNotice, WaitToTryAgain } from '../../src/shared/waitNotices.tsx';

const now = Date.UTC(2026, 10, 30, 12);

async function said(locale: 'en' | 'es', minutesLeft: number, Notice: typeof WaitToTryAgain = WaitToTryAgain) {
  await activateLocale(locale);
  vi.useFakeTimers({ now, toFake: ['Date'] });
  try {
    const { container, unmount } = render(
      <I18nProvider i18n={i18n}>
        <Notice retryAt={now + minutesLeft * 60_000} />
      </I18nProvider>,
    );
    const text = container.textContent;
    unmount();
    return text;
  } finally {
    vi.useRealTimers();
  }
}

afterAll(() => activateLocale('en'));

describe('WaitToTryAgain', () => {
  it.each([
    [1, 'For your security, please wait 1 minute before trying again.'],
    [15, 'For your security, please wait 15 minutes before trying again.'],
    [60, 'For your security, please wait 60 minutes before trying again.'],
    [60.5, 'For your security, please wait 61 minutes before trying again.'],
    // The SSN limit's second wait.
    [80, 'For your security, please wait 80 minutes before trying again.'],
    [119.5, 'For your security, please wait 2 hours before trying again.'],
    [120, 'For your security, please wait 2 hours before trying again.'],
    [120.5, 'For your security, please wait 3 hours before trying again.'],
    [160, 'For your security, please wait 3 hours before trying again.'],
    [479.2, 'For your security, please wait 8 hours before trying again.'],
    [480, 'For your security, please wait 8 hours before trying again.'],
  ])('says %s minutes left as "%s"', async (minutesLeft, text) => {
    expect(await said('en', minutesLeft)).toBe(text);
  });

  it.each([
    [10, 'Por su seguridad, espere 10 minutos antes de volver a intentarlo.'],
    [61, 'Por su seguridad, espere 61 minutos antes de volver a intentarlo.'],
    [120, 'Por su seguridad, espere 2 horas antes de volver a intentarlo.'],
    [480, 'Por su seguridad, espere 8 horas antes de volver a intentarlo.'],
  ])('in Spanish, %s minutes left as "%s"', async (minutesLeft, text) => {
    expect(await said('es', minutesLeft)).toBe(text);
  });
});

// A registration phone's codes past their ceiling wait up to 8 hours.
describe('TooManyCodesNotice', () => {
  it.each([
    ['en', 10, 'Too many codesFor your security, please wait 10 minutes before asking for a new code.'],
    ['en', 119, 'Too many codesFor your security, please wait 119 minutes before asking for a new code.'],
    ['en', 120, 'Too many codesFor your security, please wait 2 hours before asking for a new code.'],
    ['en', 479.2, 'Too many codesFor your security, please wait 8 hours before asking for a new code.'],
    ['es', 10, 'Demasiados códigosPor su seguridad, espere 10 minutos antes de pedir un código nuevo.'],
    ['es', 480, 'Demasiados códigosPor su seguridad, espere 8 horas antes de pedir un código nuevo.'],
  ] as const)('in %s, %s minutes left', async (locale, minutesLeft, text) => {
    expect(await said(locale, minutesLeft, TooManyCodesNotice)).toBe(text);
  });
});
