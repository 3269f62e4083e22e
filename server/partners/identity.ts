/**
 * Identity verification (CIP) for a new cardholder (spec §4: APPLICATION_DENIED). A real integration
 * implements `IdentityVerifier` with the bank's CIP vendor; the sandbox one denies one obvious name.
 * Uniqueness (CIP_TAKEN) is the card API's own check against its database, not the vendor's.
 */
import type { Address } from '../../contract/shared/address.ts';

export type IdentityApplicant = {
  firstName: string;
  middleName: string;
  lastName: string;
  /** mm/dd/yyyy */
  dob: string;
  /** 9 digits; never logged. */
  ssn: string;
  address: Address;
};

export type IdentityDecision = { approved: boolean };

export type IdentityVerifier = { verify(applicant: IdentityApplicant): Promise<IdentityDecision> };

/** Sandbox input (docs/sandbox.md): last name `Denied`, any case, is denied. */
export const sandboxDeniedLastName = 'denied';

export const sandboxIdentityVerifier: IdentityVerifier = {
  async verify(applicant) {
    return { approved: applicant.lastName.trim().toLowerCase() !== sandboxDeniedLastName };
  },
};

/** Outside sandbox mode until a vendor is configured: registration cannot go on (500, UNEXPECTED_ERROR). */
export const unconfiguredIdentityVerifier: IdentityVerifier = {
  async verify() {
    throw new Error('No identity verification partner is configured.');
  },
};
