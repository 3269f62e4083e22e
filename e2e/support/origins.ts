/**
 * The origins of the e2e server (playwright.config.ts starts one `server/main.ts` in sandbox mode):
 * the card app, and the sandbox companion host on its own origin, which frames the app and speaks the
 * host protocol. Import these rather than spelling the ports in specs. `E2E_PORT` moves both (the
 * companion host is 10 above, the card processor 20 above), so two checkouts can run their browser tests side by side.
 */
export const appPort = Number(process.env.E2E_PORT ?? 8181);
export const appURL = `http://localhost:${appPort}`;

export const companionHostPort = appPort + 10;
export const companionHostURL = `http://localhost:${companionHostPort}`;

/** The sandbox card processor (hosted PIN page, card details, card images) on its own origin. */
export const processorPort = appPort + 20;
export const processorURL = `http://localhost:${processorPort}`;
