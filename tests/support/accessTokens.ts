/** Access tokens shaped like the server's JWTs (unsigned): the app reads only their `sub`. */
const base64url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export function accessTokenFor(account: string): string {
  return `${base64url(JSON.stringify({ alg: 'HS256' }))}.${base64url(JSON.stringify({ sub: account }))}.signature`;
}
