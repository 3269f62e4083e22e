/**
 * The identity calls several features make (spec §7): the SSN checks of both resets and the
 * agreements. Made from the identity route table over the app's API client, and loaded with the screens
 * that make them, not with every screen's first load (the client keeps only what start-up needs).
 */
import { identityRoutes as identity } from '../../../contract/identity/routes.ts';
import type { AgreementKind, AgreementLocale, Legal } from '../../../contract/identity/types.ts';
import type { Api } from './client.ts';

export function identityCalls({ call }: Api) {
  return {
    /** With the refresh token: `{0, ssnToken}`, 401 `{4, attemptsLeft}`, 429 `{201}`. */
    verifySsnWithRefreshToken: (refreshToken: string | null, ssn: string) =>
      call(identity.verifySsnWithRefreshToken, { ssn }, { token: refreshToken }),
    /** Password reset, anonymous: `{0, ssnToken}`, 401 `{4, attemptsLeft}`, 429 `{201}`. */
    verifySsn: (email: string, ssn: string, mfaToken: string) => call(identity.verifySsn, { email, ssn, mfaToken }),
    /** Records each agreement marked 'agreed' (access token). */
    acceptAgreement: (legal: Legal) => call(identity.acceptAgreement, { legal }),
    acceptedAgreement: (agreement: AgreementKind) => call(identity.acceptedAgreement, { agreement }),
    /** Anonymous: an agreement's current text in a language. */
    agreementDocument: (kind: AgreementKind, locale: AgreementLocale) => call(identity.agreementDocument, { kind, locale }),
  };
}
