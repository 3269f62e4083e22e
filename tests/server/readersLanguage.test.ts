/** Texts and emails to the cardholder lead with the language the app is used in (server/shared/readersLanguage.ts). */
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { noticeOwner } from '../../server/notices.ts';
import { codeText } from '../../server/textedCodes.ts';
import { readersLanguage } from '../../server/shared/readersLanguage.ts';

describe("the reader's language", () => {
  it('is what Accept-Language prefers, English when it says nothing the app speaks', () => {
    expect(readersLanguage({ headers: { 'accept-language': 'es-US' } })).toBe('es');
    expect(readersLanguage({ headers: { 'accept-language': 'fr-CA, es;q=0.5' } })).toBe('es');
    expect(readersLanguage({ headers: { 'accept-language': 'fr' } })).toBe('en');
    expect(readersLanguage({ headers: {} })).toBe('en');
  });

  it("leads a texted code with it, the other language after", () => {
    expect(codeText('sign-in', '123456', 'es').split('\n')).toEqual([
      'Su código para iniciar sesión en Providers es 123456. Vence en 10 minutos. No lo comparta con nadie.',
      'Your Providers sign-in code is 123456. It expires in 10 minutes. Never share it.',
    ]);
    expect(codeText('sign-in', '123456', 'en').split('\n')[0]).toBe('Your Providers sign-in code is 123456. It expires in 10 minutes. Never share it.');
  });

  it("leads the owner's notice, its text and the email's subject, with it", async () => {
    const sms = { send: vi.fn(async () => ({ sent: true })), lineType: vi.fn() };
    const email = { send: vi.fn(async () => ({ sent: true })) };
    const log = { warn: vi.fn() } as unknown as FastifyBaseLogger;
    await noticeOwner({ sms, email }, { phone: '5592014477', email: 'maria@providers.test' }, 'password', { log, headers: { 'accept-language': 'es-US,es;q=0.9' } });
    const text =
      'Se cambió la contraseña de su cuenta Providers. Si no fue usted, comuníquese de inmediato con el servicio al cliente de Providers.\n' +
      "Your Providers password was changed. If you didn't do this, contact Providers customer support right away.";
    expect(sms.send).toHaveBeenCalledWith({ phone: '5592014477', text });
    expect(email.send).toHaveBeenCalledWith({
      to: 'maria@providers.test',
      subject: 'Se cambió la contraseña de su cuenta Providers. / Your Providers password was changed.',
      text,
    });
  });
});
