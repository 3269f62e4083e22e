/**
 * A request as the servers log it (the card API, and the sandbox's processor and companion host): its
 * path without the query, which can carry personal data (a registration link's profile: name, date of
 * birth, email, phone, address) or a token (the processor's pages).
 */
export const requestLogged = (request: { method: string; url: string; hostname?: string; ip?: string }) => ({
  method: request.method,
  url: request.url.split('?')[0],
  host: request.hostname,
  remoteAddress: request.ip,
});
