/**
 * The generic error modal and the forms' failure message (spec §8) blame the connection only when it is
 * the likely cause: the phone says it is offline, or the last call got no answer at all. A call answered
 * with an error (a gateway's page, UNEXPECTED_ERROR) is "an unexpected error", as the spec words it.
 */
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { render, screen } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { noteServerAnswered } from '../../src/shared/api/serverAnswered.ts';
import { ErrorModal } from '../../src/shared/components/ErrorModal.tsx';
import { activateLocale } from '../../src/shared/i18n/locale.ts';
import { failureMessage } from '../../src/shared/messages.ts';

let online = true;
vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);

async function modalText(locale: 'en' | 'es') {
  await activateLocale(locale);
  render(
    <I18nProvider i18n={i18n}>
      <ErrorModal open onClose={() => {}} />
    </I18nProvider>,
  );
  return screen.getByRole('dialog').textContent;
}

afterEach(() => {
  online = true;
  noteServerAnswered(true);
});
afterAll(() => activateLocale('en'));

const said = {
  en: {
    unexpected: 'Sorry, something went wrong.There was an unexpected error. Please try again.OK',
    unreached: "Sorry, something went wrong.We couldn't reach Providers. Check your connection and try again.OK",
  },
  es: {
    unexpected: 'Lo sentimos, algo salió mal.Hubo un error inesperado. Inténtelo de nuevo.Aceptar',
    unreached: 'Lo sentimos, algo salió mal.No pudimos comunicarnos con Providers. Revise su conexión e inténtelo de nuevo.Aceptar',
  },
};

describe.each(['en', 'es'] as const)('the error modal in %s', (locale) => {
  it('after a call answered with an error, online: an unexpected error', async () => {
    expect(await modalText(locale)).toBe(said[locale].unexpected);
  });

  it('after a call that got no answer (Wi-Fi without internet): Providers could not be reached', async () => {
    noteServerAnswered(false);
    expect(await modalText(locale)).toBe(said[locale].unreached);
  });

  it('with the phone offline: Providers could not be reached', async () => {
    online = false;
    expect(await modalText(locale)).toBe(said[locale].unreached);
  });
});

describe("the forms' failure message", () => {
  it('is the same choice, read when it is shown', async () => {
    await activateLocale('en');
    expect(i18n._(failureMessage())).toBe('There was an unexpected error. Please try again.');
    noteServerAnswered(false);
    expect(i18n._(failureMessage())).toBe("We couldn't reach Providers. Check your connection and try again.");
    noteServerAnswered(true);
    online = false;
    expect(i18n._(failureMessage())).toBe("We couldn't reach Providers. Check your connection and try again.");
  });
});
