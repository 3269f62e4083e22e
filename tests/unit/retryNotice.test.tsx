/**
 * A failure's notice advises checking the connection only while the phone says it has none or the last
 * call got no answer at all: a call answered with an error (a gateway's page) is not blamed on it.
 */
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, render, screen } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { noteServerAnswered } from '../../src/shared/api/serverAnswered.ts';
import { RetryNotice } from '../../src/shared/components/RetryNotice.tsx';
import { activateLocale } from '../../src/shared/i18n/locale.ts';

let online = true;
vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);

function goOnline(now: boolean) {
  online = now;
  act(() => void window.dispatchEvent(new Event(now ? 'online' : 'offline')));
}

async function renderNotice(locale: 'en' | 'es', advise = true) {
  await activateLocale(locale);
  render(
    <I18nProvider i18n={i18n}>
      <RetryNotice advise={advise} onRetry={() => {}}>
        {locale === 'en' ? "We couldn't load your account." : 'No pudimos cargar su cuenta.'}
      </RetryNotice>
    </I18nProvider>,
  );
  return screen.getByRole('alert').querySelector('p')!;
}

afterEach(() => {
  online = true;
  noteServerAnswered(true);
});
// The next file in this worker finds the app's language as it was.
afterAll(() => activateLocale('en'));

describe('RetryNotice', () => {
  it('online: says to try again, without blaming the connection; offline: to check it; and follows the phone', async () => {
    const said = await renderNotice('en');
    expect(said.textContent).toBe("We couldn't load your account. Please try again.");
    // A change of advice is read alone, not the whole alert again.
    expect(screen.getByRole('alert').getAttribute('aria-atomic')).toBe('false');
    goOnline(false);
    expect(said.textContent).toBe("We couldn't load your account. Check your connection and try again.");
    goOnline(true);
    expect(said.textContent).toBe("We couldn't load your account. Please try again.");
  });

  it('online, after a call that got no answer (Wi-Fi without internet): to check the connection, until a call is answered', async () => {
    act(() => noteServerAnswered(false));
    const said = await renderNotice('en');
    expect(said.textContent).toBe("We couldn't load your account. Check your connection and try again.");
    act(() => noteServerAnswered(true));
    expect(said.textContent).toBe("We couldn't load your account. Please try again.");
    act(() => noteServerAnswered(false));
    expect(said.textContent).toBe("We couldn't load your account. Check your connection and try again.");
  });

  it('in Spanish', async () => {
    online = false;
    const said = await renderNotice('es');
    expect(said.textContent).toBe('No pudimos cargar su cuenta. Revise su conexión e inténtelo de nuevo.');
    goOnline(true);
    expect(said.textContent).toBe('No pudimos cargar su cuenta. Inténtelo de nuevo.');
  });

  it('without `advise`, says only what it is given', async () => {
    const said = await renderNotice('en', false);
    expect(said.textContent).toBe("We couldn't load your account.");
  });
});
