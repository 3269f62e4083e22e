/**
 * The origins of the e2e server (playwright.config.ts starts one `server/main.ts` in sandbox mode):
 * the card app, and the sandbox companion host on its own origin, which frames the app and speaks the
 * host protocol. Import these rather than spelling the ports in specs.
 */
export const appPort = 8181;
export const appURL = `http://localhost:${appPort}`;

export const companionHostPort = 8191;
export const companionHostURL = `http://localhost:${companionHostPort}`;
