/**
 * Embedded, on sign-in: what the companion app's refused sign-in at start-up says (its token expired,
 * or none), in both languages. A cardholder who opened the account in the companion app has no
 * password, so the form alone would leave them stuck. (No answer at all, and Try again: e2e/embedded.spec.ts.)
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor as settled } from 'xstate';
import { type HostConnection, hostMachine, type ProvidersSession, ProvidersSignInRefused } from '../../../machines/host/host.ts';
import { CompanionSignInNotice } from '../../../src/shared/host/CompanionSignInNotice.tsx';
import { recordingHost, renderApp, signedOut } from '../../support/renderApp.tsx';

const connection: HostConnection = {
  savedState: null,
  deviceId: 'device-from-host',
  notificationPermission: 'UNKNOWN',
  parentApp: { uuid: 'companion-user-1', authEmail: null, authSource: null, eligibleBenefits: [], language: null, ebtLink: { ebtaccountId: null, uid: null } },
};

/** A host whose start-up sign-in the card API refused, as startEmbedded leaves it. */
async function refusedHost() {
  const actor = createActor(
    hostMachine.provide({
      actors: {
        connectToHost: fromPromise(async () => connection),
        providersSignIn: fromPromise(async (): Promise<ProvidersSession> => {
          throw new ProvidersSignInRefused('statusCode 100');
        }),
      },
    }),
  ).start();
  await settled(actor, (snapshot) => snapshot.hasTag('started'));
  return recordingHost({ embedded: true, actor, providersUuid: 'companion-user-1', signInNotice: CompanionSignInNotice, returnToHostRoute: () => {} });
}

describe("the companion app's sign-in refused at start-up", () => {
  it.each([
    {
      locale: 'en' as const,
      refused: "We couldn't sign you in through the benefits app. Please go back to the benefits app and open your card again.",
      password: 'If you have set a password, you can also sign in with it below.',
      back: 'Back to benefits',
      tryAgain: 'Try again',
    },
    {
      locale: 'es' as const,
      refused: 'No pudimos iniciar su sesión a través de la aplicación de beneficios. Vuelva a la aplicación de beneficios y abra su tarjeta de nuevo.',
      password: 'Si usted creó una contraseña, también puede iniciar sesión con ella abajo.',
      back: 'Volver a beneficios',
      tryAgain: 'Intentar de nuevo',
    },
  ])('says ($locale) to open the card again from the benefits app, with the way back, and offers no retry that would be refused again', async ({ locale, ...text }) => {
    const { host } = await refusedHost();
    await renderApp('/signin', { ...signedOut, locale }, { host });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(text.refused));
    expect(screen.getByText(text.password)).toBeTruthy();
    expect(screen.getByRole('button', { name: new RegExp(text.back) })).toBeTruthy();
    expect(screen.queryByRole('button', { name: text.tryAgain })).toBeNull();
  });

  it('says nothing once the cardholder has signed in another way', async () => {
    const { host } = await refusedHost();
    host.actor!.send({ type: 'session.signedIn' });
    await renderApp('/signin', signedOut, { host });
    expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
    expect(screen.queryByText(/through the benefits app/)).toBeNull();
  });
});
