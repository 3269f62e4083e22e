/**
 * The sandbox card processor's pages (server/partners/processor.ts serves them on its own origin): the
 * hosted PIN form, its result pages, the virtual card's details and the card image, in English and
 * Spanish. Plain HTML that works without JavaScript; the only script (postResultScript) posts the
 * result code to the framing app. Every value is escaped.
 */
import { isObviousCode } from '../../contract/rules.ts';
import { localeOfAcceptLanguage, type Locale } from '../../contract/shared/locale.ts';
import type { PinKind } from '../../contract/cards/types.ts';

/** The language asked for (query or form field), else the one the browser prefers. */
export function processorLocaleOf(asked: unknown, acceptLanguage?: string): Locale {
  if (asked === 'es' || asked === 'en') return asked;
  return localeOfAcceptLanguage(acceptLanguage);
}

const texts = {
  en: {
    brand: 'Card processor (sandbox)',
    pinTitle: { card: 'Set your card PIN', atm: 'Set your ATM PIN' },
    pinIntro: 'Choose 4 digits that are easy for you to remember and hard for others to guess.',
    newPin: 'New PIN (4 digits)',
    confirmPin: 'Type the new PIN again',
    submit: 'Set PIN',
    problem: 'There is a problem',
    pinInvalid: 'Enter exactly 4 digits.',
    pinObvious: 'Choose a PIN that is harder to guess: not one digit repeated (like 1111) or digits in a row (like 1234 or 4321).',
    pinMismatch: "The two PINs don't match. Type the same 4 digits twice.",
    pinSet: 'Your PIN is set.',
    pinSetNext: 'You can go back to the app.',
    expired: 'This page has expired.',
    changed: 'This page was replaced by a newer one.',
    goBack: 'Go back to the app and try again.',
    sandboxTools: 'Sandbox test controls',
    sandboxToolsHint: 'Answer the app as the processor would, without setting a PIN.',
    simulateExpired: 'Answer -10 (token expired)',
    simulateChanged: 'Answer -11 (token changed)',
    detailsTitle: 'Your virtual card',
    cardNumber: 'Card number',
    expires: 'Expires',
    cvv: 'Security code (CVV)',
    detailsPrivate: 'Keep these details private. Anyone who has them can use your card online.',
    detailsExpired: 'Go back to the app and ask to see your card again.',
    cardName: { VIRTUAL: 'Providers virtual debit card', PHYSICAL: 'Providers debit card' },
    cardKind: { VIRTUAL: 'VIRTUAL DEBIT CARD', PHYSICAL: 'DEBIT CARD' },
    endingIn: (name: string, lastFour: string) => `${name} ending in ${lastFour}`,
  },
  es: {
    brand: 'Procesador de tarjetas (sandbox)',
    pinTitle: { card: 'Establezca el PIN de su tarjeta', atm: 'Establezca su PIN para cajeros automáticos' },
    pinIntro: 'Elija 4 dígitos que usted recuerde fácilmente y que sean difíciles de adivinar para otras personas.',
    newPin: 'PIN nuevo (4 dígitos)',
    confirmPin: 'Escriba el PIN nuevo otra vez',
    submit: 'Establecer PIN',
    problem: 'Hay un problema',
    pinInvalid: 'Escriba exactamente 4 dígitos.',
    pinObvious: 'Elija un PIN más difícil de adivinar: que no repita un mismo dígito (como 1111) ni tenga dígitos seguidos (como 1234 o 4321).',
    pinMismatch: 'Los dos PIN no coinciden. Escriba los mismos 4 dígitos dos veces.',
    pinSet: 'Su PIN está listo.',
    pinSetNext: 'Puede volver a la aplicación.',
    expired: 'Esta página venció.',
    changed: 'Esta página fue reemplazada por una más reciente.',
    goBack: 'Vuelva a la aplicación e inténtelo de nuevo.',
    sandboxTools: 'Controles de prueba del sandbox',
    sandboxToolsHint: 'Responda a la aplicación como lo haría el procesador, sin guardar un PIN.',
    simulateExpired: 'Responder -10 (token vencido)',
    simulateChanged: 'Responder -11 (token cambiado)',
    detailsTitle: 'Su tarjeta virtual',
    cardNumber: 'Número de tarjeta',
    expires: 'Vence',
    cvv: 'Código de seguridad (CVV)',
    detailsPrivate: 'Mantenga estos datos en privado. Cualquier persona que los tenga puede usar su tarjeta en línea.',
    detailsExpired: 'Vuelva a la aplicación y pida ver su tarjeta otra vez.',
    cardName: { VIRTUAL: 'Tarjeta de débito virtual Providers', PHYSICAL: 'Tarjeta de débito Providers' },
    cardKind: { VIRTUAL: 'TARJETA DE DÉBITO VIRTUAL', PHYSICAL: 'TARJETA DE DÉBITO' },
    endingIn: (name: string, lastFour: string) => `${name} terminada en ${lastFour}`,
  },
} as const;

export type PinProblem = 'pinInvalid' | 'pinObvious' | 'pinMismatch';

/** The PIN rules (spec §5): 4 digits, not an obvious one (contract isObviousCode, as the unlock code), typed the same twice. */
export function pinProblem(pin: string, confirmation: string): PinProblem | null {
  if (!/^\d{4}$/.test(pin)) return 'pinInvalid';
  if (isObviousCode(pin)) return 'pinObvious';
  return pin === confirmation ? null : 'pinMismatch';
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!);

/** What the page posts to the app (contract PinChangeResult), and to which exact origins. */
type PostResult = { code: number; appOrigins: string[] };

function page(locale: Locale, title: string, body: string, post?: PostResult): string {
  const meta = post
    ? `<meta name="processor-result" content="${post.code}"><meta name="app-origins" content="${escapeHtml(post.appOrigins.join(' '))}">` +
      '<script src="/post-result.js" defer></script>'
    : '';
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><link rel="stylesheet" href="/processor.css">${meta}</head>` +
    `<body><header><p class="brand">${escapeHtml(texts[locale].brand)}</p></header><main>${body}</main></body></html>`;
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

/** The hosted PIN form; with `problem`, the reason the last try was refused (announced, tied to the field). */
export function pinFormPage(request: { locale: Locale; pin: PinKind; token: string; problem?: PinProblem }): string {
  const t = texts[request.locale];
  const problem = request.problem;
  const errorOn = (field: 'pin' | 'pinConfirm') => (problem === 'pinMismatch' ? field === 'pinConfirm' : field === 'pin') && problem !== undefined;
  const input = (id: 'pin' | 'pinConfirm', label: string) => {
    const invalid = errorOn(id);
    const describedBy = ['pin-hint', invalid ? 'pin-problem' : ''].filter(Boolean).join(' ');
    return `<p class="field"><label for="${id}">${escapeHtml(label)}</label>` +
      `<input id="${id}" name="${id}" type="password" inputmode="numeric" autocomplete="off" maxlength="4" size="4"` +
      ` aria-describedby="${describedBy}"${invalid ? ' aria-invalid="true"' : ''}></p>`;
  };
  const alert = problem
    ? `<div class="problem" role="alert"><h2>${escapeHtml(t.problem)}</h2><p id="pin-problem">${escapeHtml(t[problem])}</p></div>`
    : '';
  const common = hidden('token', request.token) + hidden('locale', request.locale);
  const body =
    `<h1>${escapeHtml(t.pinTitle[request.pin])}</h1>${alert}` +
    `<p id="pin-hint">${escapeHtml(t.pinIntro)}</p>` +
    `<form method="post" action="/pin" novalidate>${common}${input('pin', t.newPin)}${input('pinConfirm', t.confirmPin)}` +
    `<button type="submit">${escapeHtml(t.submit)}</button></form>` +
    `<section class="sandbox" aria-labelledby="sandbox-tools"><h2 id="sandbox-tools">${escapeHtml(t.sandboxTools)}</h2>` +
    `<p>${escapeHtml(t.sandboxToolsHint)}</p><form method="post" action="/pin/simulate">${common}` +
    `<button type="submit" name="result" value="-10" class="secondary">${escapeHtml(t.simulateExpired)}</button>` +
    `<button type="submit" name="result" value="-11" class="secondary">${escapeHtml(t.simulateChanged)}</button></form></section>`;
  return page(request.locale, t.pinTitle[request.pin], body);
}

/** The page after the PIN form: it tells the reader, and posts the code to the framing app. */
export function pinResultPage(request: { locale: Locale; code: 0 | -10 | -11; appOrigins: string[] }): string {
  const t = texts[request.locale];
  const [title, next] = request.code === 0 ? [t.pinSet, t.pinSetNext] : [request.code === -10 ? t.expired : t.changed, t.goBack];
  return page(request.locale, title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(next)}</p>`, { code: request.code, appOrigins: request.appOrigins });
}

/** The virtual card's number, expiry and CVV: shown by the processor alone. */
export function cardDetailsPage(request: { locale: Locale; pan: string; expiry: string; cvv: string }): string {
  const t = texts[request.locale];
  const grouped = request.pan.replace(/(\d{4})(?=\d)/g, '$1 ');
  const row = (term: string, value: string, className = '') =>
    `<div${className ? ` class="${className}"` : ''}><dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd></div>`;
  const body =
    `<h1>${escapeHtml(t.detailsTitle)}</h1><dl class="card-details">` +
    `${row(t.cardNumber, grouped, 'number')}${row(t.expires, request.expiry)}${row(t.cvv, request.cvv)}</dl>` +
    `<p>${escapeHtml(t.detailsPrivate)}</p>`;
  return page(request.locale, t.detailsTitle, body);
}

export function cardDetailsExpiredPage(locale: Locale): string {
  const t = texts[locale];
  return page(locale, t.expired, `<h1>${escapeHtml(t.expired)}</h1><p>${escapeHtml(t.detailsExpired)}</p>`);
}

const problems = {
  en: { badRequest: 'Bad request', unexpected: 'Unexpected error', notFound: 'Not found' },
  es: { badRequest: 'Solicitud no válida', unexpected: 'Ocurrió un error inesperado', notFound: 'No se encontró la página' },
} as const;

/** The few words of a plain-text problem answer (a malformed request, a failure, an unknown address), in the reader's language. */
export const problemText = (locale: Locale, problem: keyof (typeof problems)['en']) => problems[locale][problem];

/** The card's picture: the brand, the kind of card and, once it is active, its last 4 digits. */
export function cardImageSvg(locale: Locale, card: { type: 'VIRTUAL' | 'PHYSICAL'; lastFour: string | null }): string {
  const t = texts[locale];
  const label = card.lastFour ? t.endingIn(t.cardName[card.type], card.lastFour) : t.cardName[card.type];
  const number = card.lastFour ? `•••• •••• •••• ${card.lastFour}` : '•••• •••• •••• ••••';
  const fill = card.type === 'VIRTUAL' ? '#1d4e89' : '#0b5d4b';
  return `<svg xmlns="http://www.w3.org/2000/svg" xml:lang="${locale}" width="340" height="214" viewBox="0 0 340 214" role="img">` +
    `<title>${escapeHtml(label)}</title><rect width="340" height="214" rx="16" fill="${fill}"/>` +
    '<text x="24" y="46" font-family="system-ui, sans-serif" font-size="24" font-weight="700" fill="#ffffff">Providers</text>' +
    `<text x="24" y="138" font-family="ui-monospace, monospace" font-size="22" letter-spacing="1" fill="#ffffff">${escapeHtml(number)}</text>` +
    `<text x="24" y="186" font-family="system-ui, sans-serif" font-size="14" fill="#ffffff">${escapeHtml(t.cardKind[card.type])}</text>` +
    '</svg>';
}

/** The pages' one script: posts the page's result code to the framing app, at each exact app origin (a post to another origin is dropped by the browser). */
export const postResultScript = `(() => {
  const result = document.querySelector('meta[name="processor-result"]');
  const origins = document.querySelector('meta[name="app-origins"]');
  if (!result || !origins || window.parent === window) return;
  for (const origin of origins.content.split(' ').filter(Boolean)) window.parent.postMessage(Number(result.content), origin);
})();
`;

/** Phone first (360 px), large targets, AA contrast. */
export const processorStyles = `*{box-sizing:border-box}
body{margin:0;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1b;background:#fff}
header{padding:.5rem 1rem;background:#f1f3f5;border-bottom:1px solid #ccd1d6}
.brand{margin:0;font-size:.875rem;color:#3d4551}
main{max-width:28rem;margin:0 auto;padding:1rem}
h1{font-size:1.375rem;line-height:1.3;margin:.5rem 0 1rem}
h2{font-size:1.0625rem;margin:0 0 .5rem}
.field{margin:0 0 1rem}
label{display:block;font-weight:600;margin-bottom:.25rem}
input[type=password]{font-size:1.5rem;letter-spacing:.5rem;width:8rem;min-height:3rem;padding:.25rem .5rem;border:2px solid #565c65;border-radius:.25rem}
input[aria-invalid=true]{border-color:#b50909}
input:focus,button:focus{outline:3px solid #2491ff;outline-offset:2px}
button{display:block;width:100%;min-height:3rem;margin:0 0 .75rem;padding:.5rem 1rem;font:inherit;font-weight:600;color:#fff;background:#005ea2;border:0;border-radius:.25rem;cursor:pointer}
button.secondary{color:#005ea2;background:#fff;border:2px solid #005ea2}
.problem{border-left:.5rem solid #b50909;background:#f4e3db;padding:.75rem 1rem;margin:0 0 1rem}
.problem p{margin:0}
.sandbox{margin-top:2rem;padding-top:1rem;border-top:1px dashed #565c65}
.card-details div{margin:0 0 .75rem}
.card-details dt{font-weight:600}
.card-details dd{margin:0;font-size:1.25rem;font-variant-numeric:tabular-nums}
.card-details .number dd{font-family:ui-monospace,monospace;letter-spacing:.05em;white-space:nowrap;font-size:min(1.25rem,7vw)}
`;
