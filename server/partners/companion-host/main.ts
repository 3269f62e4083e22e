/**
 * The sandbox companion host page: frames the card app and answers its host-protocol messages
 * (contract/hostProtocol.ts) the way the companion benefits app would, with values from the tester panel.
 * Plain DOM on purpose (no React): the page stays tiny. Everything it keeps lives in this origin's
 * localStorage (storageKeys), never in the card app's.
 */
import './styles.css';
import {
  benefitKinds,
  hostProtocol,
  parseAppMessage,
  type AppMessage,
  type BenefitKind,
  type HostMessage,
  type HostNoticeType,
  type HostQueries,
  type HostQueryType,
  type HostSavedState,
  type NoticeMessage,
  type NotificationPermission,
  type PushMessage,
  type ReplyMessage,
} from '../../../contract/hostProtocol.ts';
import { preferredLocale } from '../../../contract/shared/locale.ts';
import {
  defaultCompanionUser,
  maxTokenTtlSeconds,
  minTokenTtlSeconds,
  orNull,
  parseCompanionUser,
  parseNotificationPermission,
  signedOutCompanionUser,
  storageKeys,
  summarizePayload,
  type CompanionUser,
  type PermissionAnswer,
} from './user.ts';

// --- page elements ----------------------------------------------------------------------------

function element<T extends HTMLElement>(selector: string, type: { new (): T }): T {
  const found = document.querySelector(selector);
  if (!(found instanceof type)) throw new Error(`The companion host page has no ${selector}.`);
  return found;
}

const iframe = element('iframe[name="card-app"]', HTMLIFrameElement);
const userForm = element('#user-form', HTMLFormElement);
const fields = {
  uuid: element('#user-uuid', HTMLInputElement),
  email: element('#user-email', HTMLInputElement),
  authSource: element('#user-auth-source', HTMLInputElement),
  ebtAccountId: element('#user-ebt-account-id', HTMLInputElement),
  ebtUid: element('#user-ebt-uid', HTMLInputElement),
  tokenTtlSeconds: element('#user-token-ttl', HTMLInputElement),
  language: element('#user-language', HTMLSelectElement),
};
const benefitBoxes = [...userForm.querySelectorAll<HTMLInputElement>('input[name="benefit"]')];
const userFormError = element('#user-form-error', HTMLParagraphElement);
const permissionSelect = element('#notification-permission', HTMLSelectElement);
const answerRadios = [...document.querySelectorAll<HTMLInputElement>('input[name="permission-answer"]')];
const outputs = {
  deviceId: element('#device-id', HTMLOutputElement),
  lastUrl: element('#last-url', HTMLOutputElement),
  lastCopied: element('#last-copied', HTMLOutputElement),
  clipboardResult: element('#clipboard-result', HTMLOutputElement),
  lastRoute: element('#last-route', HTMLOutputElement),
  appLoads: element('#app-loads', HTMLOutputElement),
  savedState: element('#saved-state', HTMLOutputElement),
};
const messageLog = element('#message-log', HTMLOListElement);

// --- configuration (injected by server/partners/companionHost.ts) -------------------------------

function readAppUrl(): URL {
  const text = document.getElementById('companion-config')?.textContent ?? '';
  try {
    const config = JSON.parse(text) as { appUrl?: unknown };
    if (typeof config.appUrl === 'string') return new URL(config.appUrl);
  } catch {
    // fall through: served without the server (vite dev), use the default app port
  }
  return new URL('http://localhost:8080');
}

const appUrl = readAppUrl();
const appOrigin = appUrl.origin;
const appStartUrl = new URL('/home', appUrl).href;

// --- storage (this origin's localStorage) -----------------------------------------------------

function readJson(key: string): unknown {
  try {
    const text = localStorage.getItem(key);
    return text === null ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

const writeJson = (key: string, value: unknown) => localStorage.setItem(key, JSON.stringify(value));

function loadDeviceId(): string {
  const stored = localStorage.getItem(storageKeys.deviceId);
  if (stored) return stored;
  const created = crypto.randomUUID();
  localStorage.setItem(storageKeys.deviceId, created);
  return created;
}

function loadSavedState(): HostSavedState | null {
  const state = readJson(storageKeys.cardAppState);
  return typeof state === 'object' && state !== null && !Array.isArray(state) ? (state as HostSavedState) : null;
}

function showSavedState(state: HostSavedState | null): void {
  outputs.savedState.textContent = state === null ? '' : JSON.stringify(state, null, 2);
}

let user: CompanionUser = parseCompanionUser(readJson(storageKeys.user) ?? defaultCompanionUser);
let permission: NotificationPermission = parseNotificationPermission(localStorage.getItem(storageKeys.notificationPermission));
let permissionAnswer: PermissionAnswer = localStorage.getItem(storageKeys.permissionAnswer) === 'deny' ? 'deny' : 'allow';
const deviceId = loadDeviceId();

// --- message log ------------------------------------------------------------------------------

type Direction = 'app → host' | 'host → app' | 'other → host';
const maxLogEntries = 300;

function log(direction: Direction, type: string, summary: string, rejected = false): void {
  const item = document.createElement('li');
  const time = document.createElement('span');
  time.className = 'time';
  time.textContent = new Date().toLocaleTimeString('en-US', { hour12: false });
  const dir = document.createElement('span');
  dir.className = `direction ${rejected ? 'rejected' : direction === 'host → app' ? 'to-app' : 'from-app'}`;
  dir.textContent = direction;
  const kind = document.createElement('span');
  kind.className = 'type';
  kind.textContent = type;
  const detail = document.createElement('span');
  detail.className = 'summary';
  detail.textContent = summary;
  item.append(time, dir, ' ', kind, detail);
  messageLog.prepend(item);
  while (messageLog.children.length > maxLogEntries) messageLog.lastElementChild?.remove();
}

// --- talking to the app -------------------------------------------------------------------------

/** Always to the exact app origin, never '*': if the frame shows another origin the browser drops it. */
function send(message: HostMessage, logType: string): void {
  iframe.contentWindow?.postMessage(message, appOrigin);
  const shown = message.type === 'reply' && message.error !== undefined ? { error: message.error } : message.payload;
  log('host → app', logType, summarizePayload(shown));
}

function push(next: NotificationPermission): void {
  const message: PushMessage<'notificationPermission.changed'> = {
    protocol: hostProtocol,
    type: 'notificationPermission.changed',
    payload: { permission: next },
  };
  send(message, message.type);
}

async function companionAccessToken(): Promise<string | null> {
  const uuid = orNull(user.uuid);
  if (uuid === null) return null;
  const response = await fetch('/companion/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ uuid, email: orNull(user.email), ebtAccountId: orNull(user.ebtAccountId), ttlSeconds: user.tokenTtlSeconds }),
  });
  if (!response.ok) throw new Error(`POST /companion/token answered ${response.status}`);
  const body = (await response.json()) as { accessToken?: unknown };
  if (typeof body.accessToken !== 'string') throw new Error('POST /companion/token answered no token');
  return body.accessToken;
}

function setPermission(next: NotificationPermission): void {
  permission = next;
  permissionSelect.value = next;
  localStorage.setItem(storageKeys.notificationPermission, next);
}

/** One answer per query, typed by the protocol. */
const answers: { [K in HostQueryType]: () => HostQueries[K] | Promise<HostQueries[K]> } = {
  'state.load': () => ({ state: loadSavedState() }),
  'deviceId.get': () => ({ deviceId }),
  'notificationPermission.get': () => ({ permission }),
  'notificationPermission.request': () => {
    setPermission(permissionAnswer === 'allow' ? 'ENABLED' : 'DISABLED');
    return { permission };
  },
  'parentApp.uuid.get': () => ({ uuid: orNull(user.uuid) }),
  'parentApp.authEmail.get': () => ({ authEmail: orNull(user.email), authSource: orNull(user.authSource) }),
  'parentApp.userSettings.get': () => ({
    userSettings: { eligibleBenefits: [...user.eligibleBenefits], ...(user.language ? { language: user.language } : {}) },
  }),
  'parentApp.accessToken.get': async () => ({ accessToken: await companionAccessToken() }),
  'parentApp.ebtLink.get': () => ({ ebtaccountId: orNull(user.ebtAccountId), uid: orNull(user.ebtUid) }),
};

async function answer(type: HostQueryType, id: string): Promise<void> {
  let reply: ReplyMessage;
  try {
    reply = { protocol: hostProtocol, type: 'reply', replyTo: id, payload: await answers[type]() };
  } catch (error) {
    console.warn(`companion host: could not answer ${type}`, error);
    reply = { protocol: hostProtocol, type: 'reply', replyTo: id, error: 'unavailable' };
  }
  send(reply, `reply to ${type}`);
}

async function copyToClipboard(text: string): Promise<void> {
  outputs.lastCopied.textContent = text;
  try {
    await navigator.clipboard.writeText(text);
    outputs.clipboardResult.textContent = 'written to the clipboard';
  } catch (error) {
    // Without focus or permission the browser refuses; the text above is what the app asked for.
    outputs.clipboardResult.textContent = `not written (${error instanceof Error ? error.name : 'refused'})`;
  }
}

/** The notices as a union discriminated by type, so each case sees its own payload. */
type Notice = { [K in HostNoticeType]: NoticeMessage<K> }[HostNoticeType];

function handle(message: AppMessage): void {
  if ('id' in message) {
    log('app → host', message.type, `#${message.id}`);
    void answer(message.type, message.id);
    return;
  }
  const notice = message as Notice;
  log('app → host', notice.type, summarizePayload(notice.payload));
  switch (notice.type) {
    case 'state.save':
      writeJson(storageKeys.cardAppState, notice.payload.state);
      showSavedState(notice.payload.state);
      return;
    case 'url.open':
      // Shown, not opened: testers and tests read it from the status output.
      outputs.lastUrl.textContent = notice.payload.url;
      return;
    case 'clipboard.copy':
      void copyToClipboard(notice.payload.text);
      return;
    case 'hostRoute.return':
      outputs.lastRoute.textContent = notice.payload.route;
      return;
    case 'cms.sitevars':
      return; // logged above; that is all a host does with them here
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  try {
    if (event.origin !== appOrigin || event.source !== iframe.contentWindow) {
      log('other → host', 'ignored', `from ${event.origin || 'an unknown origin'}`, true);
      return;
    }
    const message = parseAppMessage(event.data);
    if (!message) {
      log('app → host', 'rejected', summarizePayload(event.data), true);
      return;
    }
    handle(message);
  } catch (error) {
    console.warn('companion host: a message could not be handled', error);
  }
});

// --- the phone frame, in the companion app's language ------------------------------------------

const frameWords = {
  en: { app: 'Benefits app', title: 'Benefits', sections: 'Benefits app sections', home: 'Home', card: 'Card', settings: 'Settings', cardApp: 'Providers card' },
  es: { app: 'App de beneficios', title: 'Beneficios', sections: 'Secciones de la app de beneficios', home: 'Inicio', card: 'Tarjeta', settings: 'Configuración', cardApp: 'Tarjeta Providers' },
};

/** The frame around the card app speaks the companion app's language; the tester panel stays English. */
function speakFrame(language: string): void {
  const locale = preferredLocale([language]);
  const words = frameWords[locale];
  const phone = element('#phone', HTMLElement);
  phone.lang = locale;
  phone.setAttribute('aria-label', words.app);
  element('#phone-title', HTMLHeadingElement).textContent = words.title;
  element('#tab-bar', HTMLElement).setAttribute('aria-label', words.sections);
  element('#tab-home', HTMLSpanElement).textContent = words.home;
  element('#tab-card', HTMLSpanElement).textContent = words.card;
  element('#tab-settings', HTMLSpanElement).textContent = words.settings;
  iframe.title = words.cardApp;
}

// --- tester panel -------------------------------------------------------------------------------

function fillUserForm(value: CompanionUser): void {
  fields.uuid.value = value.uuid;
  fields.email.value = value.email;
  fields.authSource.value = value.authSource;
  fields.ebtAccountId.value = value.ebtAccountId;
  fields.ebtUid.value = value.ebtUid;
  fields.tokenTtlSeconds.value = String(value.tokenTtlSeconds);
  fields.language.value = value.language;
  for (const box of benefitBoxes) box.checked = value.eligibleBenefits.includes(box.value as BenefitKind);
}

function readUserForm(): CompanionUser | string {
  const ttl = Number(fields.tokenTtlSeconds.value);
  if (!Number.isInteger(ttl) || ttl < minTokenTtlSeconds || ttl > maxTokenTtlSeconds) {
    return `Access token lifetime: a whole number of seconds from ${minTokenTtlSeconds} to ${maxTokenTtlSeconds}.`;
  }
  const uuid = fields.uuid.value.trim();
  if (uuid !== '' && !/^[A-Za-z0-9_-]{1,128}$/.test(uuid)) return 'UUID: letters, digits, "-" and "_" only.';
  return {
    uuid,
    email: fields.email.value.trim(),
    authSource: fields.authSource.value.trim(),
    eligibleBenefits: benefitKinds.filter((kind) => benefitBoxes.some((box) => box.checked && box.value === kind)),
    ebtAccountId: fields.ebtAccountId.value.trim(),
    ebtUid: fields.ebtUid.value.trim(),
    tokenTtlSeconds: ttl,
    language: fields.language.value,
  };
}

let appLoads = 0;
iframe.addEventListener('load', () => {
  appLoads += 1;
  outputs.appLoads.textContent = String(appLoads);
});

/** Setting src again navigates the frame afresh (a cross-origin frame cannot be reloaded directly). */
function reloadApp(): void {
  iframe.src = appStartUrl;
}

userForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const next = readUserForm();
  if (typeof next === 'string') {
    userFormError.textContent = next;
    return;
  }
  userFormError.textContent = '';
  user = next;
  writeJson(storageKeys.user, user);
  speakFrame(user.language);
  reloadApp();
});
element('#preset-demo', HTMLButtonElement).addEventListener('click', () => fillUserForm(defaultCompanionUser));
element('#preset-signed-out', HTMLButtonElement).addEventListener('click', () => fillUserForm(signedOutCompanionUser));

permissionSelect.addEventListener('change', () => {
  setPermission(parseNotificationPermission(permissionSelect.value));
  push(permission);
});
for (const radio of answerRadios) {
  radio.checked = radio.value === permissionAnswer;
  radio.addEventListener('change', () => {
    if (!radio.checked) return;
    permissionAnswer = radio.value === 'deny' ? 'deny' : 'allow';
    localStorage.setItem(storageKeys.permissionAnswer, permissionAnswer);
  });
}

element('#forget-state', HTMLButtonElement).addEventListener('click', () => {
  localStorage.removeItem(storageKeys.cardAppState);
  showSavedState(null);
  reloadApp();
});
element('#clear-log', HTMLButtonElement).addEventListener('click', () => messageLog.replaceChildren());

// --- start ----------------------------------------------------------------------------------------

fillUserForm(user);
speakFrame(user.language);
permissionSelect.value = permission;
outputs.deviceId.textContent = deviceId;
showSavedState(loadSavedState());
// Listening before the frame loads: the app's first questions (state.load, deviceId.get) are answered.
reloadApp();
