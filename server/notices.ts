/**
 * Notices to the owner after a change that a stranger with stolen details would make first: a text to
 * the phone on file and an email, through the partner gateways (in sandbox mode both land in the
 * outboxes: GET /sandbox/outbox, /sandbox/email-outbox). English and Spanish in one message (the
 * owner may read the other), the language the app was used in first: a phone's lock screen and an
 * inbox show the start. A notice that cannot be sent never undoes the change;
 * it is logged (without address or text) for support to follow up.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Locale } from '../contract/shared/locale.ts';
import type { Partners } from './services.ts';
import { inReadersOrder, readersLanguage } from './shared/readersLanguage.ts';

export type OwnerChange = 'password' | 'unlockCode';

const changeWords: Record<OwnerChange, { en: string; es: string }> = {
  password: { en: 'Your Providers password was changed.', es: 'Se cambió la contraseña de su cuenta Providers.' },
  unlockCode: { en: 'Your Providers unlock code was changed.', es: 'Se cambió el código de desbloqueo de su cuenta Providers.' },
};

const ifNotYou = {
  en: "If you didn't do this, contact Providers customer support right away.",
  es: 'Si no fue usted, comuníquese de inmediato con el servicio al cliente de Providers.',
};

/** The notice's text for a change, both languages, `locale`'s first. */
export function noticeText(change: OwnerChange, locale: Locale): string {
  const words = changeWords[change];
  return inReadersOrder({ en: `${words.en} ${ifNotYou.en}`, es: `${words.es} ${ifNotYou.es}` }, locale).join('\n');
}

export async function noticeOwner(
  partners: Pick<Partners, 'sms' | 'email'>,
  owner: { phone: string; email: string },
  change: OwnerChange,
  request: { log: FastifyBaseLogger; headers: { 'accept-language'?: string } },
): Promise<void> {
  const locale = readersLanguage(request);
  const text = noticeText(change, locale);
  const subject = inReadersOrder(changeWords[change], locale).join(' / ');
  const [texted, emailed] = await Promise.all([
    partners.sms.send({ phone: owner.phone, text }).catch(() => ({ sent: false })),
    partners.email.send({ to: owner.email, subject, text }).catch(() => ({ sent: false })),
  ]);
  const { log } = request;
  if (!texted.sent || !emailed.sent) log.warn({ change, texted: texted.sent, emailed: emailed.sent }, 'owner notice not sent');
}
