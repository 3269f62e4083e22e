/** Identity calls (spec §7): registration, email/phone/address/SSN verification, agreements. */
import type { StatusAnswer } from '../shared/answers.ts';
import { route } from '../shared/route.ts';
import type { AcceptedAgreementQuery } from '../validation.ts';
import type {
  AcceptedAgreementAnswer,
  AgreementDocumentAnswer,
  AgreementDocumentQuery,
  Legal,
  PhoneInUseAnswer,
  RegisterAnswer,
  RegistrationPayload,
  RequestVerificationAnswer,
  VerifyAddressAnswer,
  VerifyAddressRequest,
  VerifyEmailAnswer,
  VerifyPhoneAnswer,
  VerifySsnAnswer,
} from './types.ts';

export const identityRoutes = {
  verifyEmail: route<{ email: string }, VerifyEmailAnswer>({
    name: 'verifyEmail',
    method: 'POST',
    path: '/verify/email',
    caller: 'anonymous',
    answers: { 200: [0], 400: [2, 4], 404: [3], 429: [201] },
  }),
  phoneNumberInUse: route<{ phone: string }, PhoneInUseAnswer>({
    name: 'phoneNumberInUse',
    method: 'POST',
    path: '/phone-number-in-use',
    caller: 'anonymous',
    answers: { 200: [0], 400: [2, 4], 429: [201] },
  }),
  requestVerification: route<{ phone: string }, RequestVerificationAnswer>({
    name: 'requestVerification',
    method: 'POST',
    path: '/request-verification',
    caller: 'anonymous',
    answers: { 200: [0, 202, 203, 204], 400: [2], 429: [201] },
  }),
  verifyPhone: route<{ phone: string; code: string }, VerifyPhoneAnswer>({
    name: 'verifyPhone',
    method: 'POST',
    path: '/verify-phone',
    caller: 'anonymous',
    answers: { 200: [0, 200, 202], 400: [2], 429: [201] },
  }),
  verifyAddress: route<VerifyAddressRequest, VerifyAddressAnswer>({
    name: 'verifyAddress',
    method: 'POST',
    path: '/verify-address',
    caller: 'anonymous',
    answers: { 200: [0, 300, 301, 302, 303, 304, 305, 306, 307], 400: [2, 4], 429: [201] },
  }),
  register: route<RegistrationPayload, RegisterAnswer>({
    name: 'register',
    method: 'POST',
    path: '/register',
    caller: 'anonymous',
    answers: { 200: [0], 400: [2, 4], 403: [1, 2], 409: [5], 429: [201] },
  }),
  verifySsn: route<{ email: string; ssn: string; mfaToken: string }, VerifySsnAnswer>({
    name: 'verifySsn',
    method: 'POST',
    path: '/verify/ssn',
    caller: 'anonymous',
    answers: { 200: [0], 400: [2, 4], 401: [4], 429: [201] },
  }),
  verifySsnWithRefreshToken: route<{ ssn: string }, VerifySsnAnswer>({
    name: 'verifySsnWithRefreshToken',
    method: 'POST',
    path: '/verify/ssn/logged-in-refresh-token',
    caller: 'refreshToken',
    answers: { 200: [0], 400: [2, 4], 401: [4, 104], 429: [201] },
  }),
  acceptAgreement: route<{ legal: Legal }, StatusAnswer>({
    name: 'acceptAgreement',
    method: 'POST',
    path: '/accept-agreement',
    caller: 'accessToken',
    answers: { 200: [0], 400: [2], 401: [103, 104] },
  }),
  acceptedAgreement: route<AcceptedAgreementQuery, AcceptedAgreementAnswer>({
    name: 'acceptedAgreement',
    method: 'GET',
    path: '/accepted-agreement',
    caller: 'accessToken',
    answers: { 200: [0], 400: [2], 401: [103, 104] },
  }),
  agreementDocument: route<AgreementDocumentQuery, AgreementDocumentAnswer>({
    name: 'agreementDocument',
    method: 'GET',
    path: '/agreement',
    caller: 'anonymous',
    answers: { 200: [0], 400: [2] },
  }),
};
