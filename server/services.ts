/**
 * The composition root: every server service built once, over one database and one configuration, and
 * handed to the feature plugins (server/features/<feature>/). No feature builds its own copy.
 */
import { type AttemptLimits, createAttemptLimits } from './attemptLimits.ts';
import { type AfterAnswer, createAfterAnswer } from './shared/afterAnswer.ts';
import type { ServerConfig } from './config.ts';
import type { Database } from './db/database.ts';
import { createSandboxEmailGateway, type EmailGateway, unconfiguredEmailGateway } from './partners/email.ts';
import { type AddressVerifier, printableAddressesOnly, sandboxAddressVerifier, unconfiguredAddressVerifier } from './partners/address.ts';
import { type IdentityVerifier, sandboxIdentityVerifier, unconfiguredIdentityVerifier } from './partners/identity.ts';
import { type CardProcessor, createSandboxProcessor, unconfiguredCardProcessor } from './partners/processor.ts';
import { createSandboxSmsGateway, type SmsGateway, unconfiguredSmsGateway } from './partners/sms.ts';
import { createSessions, type Sessions } from './sessions.ts';
import { createTextedCodes, type TextedCodes } from './textedCodes.ts';

export type Partners = { identity: IdentityVerifier; address: AddressVerifier; sms: SmsGateway; email: EmailGateway; processor: CardProcessor };

export type Services = {
  config: ServerConfig;
  db: Database;
  sessions: Sessions;
  limits: AttemptLimits;
  textedCodes: TextedCodes;
  partners: Partners;
  /** Work done once the answer has gone (shared/afterAnswer.ts). */
  afterAnswer: AfterAnswer;
};

/** Sandbox stand-ins in sandbox mode; outside it, nothing is configured yet (docs/sandbox.md). */
function partnersFor(config: ServerConfig, db: Database): Partners {
  return config.sandbox
    ? {
        identity: sandboxIdentityVerifier,
        address: printableAddressesOnly(sandboxAddressVerifier),
        sms: createSandboxSmsGateway(db),
        email: createSandboxEmailGateway(db),
        processor: createSandboxProcessor(db, config),
      }
    : {
        identity: unconfiguredIdentityVerifier,
        address: printableAddressesOnly(unconfiguredAddressVerifier),
        sms: unconfiguredSmsGateway,
        email: unconfiguredEmailGateway,
        processor: unconfiguredCardProcessor,
      };
}

export function createServices(config: ServerConfig, db: Database): Services {
  const partners = partnersFor(config, db);
  return {
    config,
    db,
    sessions: createSessions(db, config),
    limits: createAttemptLimits(db),
    textedCodes: createTextedCodes(db, config.ssnHashKey, partners.sms),
    partners,
    afterAnswer: createAfterAnswer(),
  };
}
