/**
 * A call's path asked with a method it does not take is answered 405 with the methods it does take in
 * `Allow` (RFC 9110 §15.5.6: MUST), and OPTIONS names them with 204 (§9.3.7). Fastify answers both 404,
 * as for a path that does not exist, and a client cannot tell a wrong method from a wrong path.
 */
import { METHODS } from 'node:http';
import type { FastifyInstance, HTTPMethods } from 'fastify';

/** The calls' paths: the API, the content calls and the sandbox (the web app's pages take GET only). */
const callPath = /^\/(api|cms|sandbox)\//;

/**
 * Notes every call's path and methods as routes are added; the returned function, called once they all
 * are, adds the answers for the other methods. `refusal`: the server's body for a 405.
 */
export function answerOtherMethods(app: FastifyInstance, refusal: object): () => void {
  const taken = new Map<string, Set<HTTPMethods>>();
  let answering = false;
  app.addHook('onRoute', (route) => {
    if (answering || !callPath.test(route.url)) return;
    const methodsOfPath = taken.get(route.url) ?? new Set();
    for (const method of [route.method].flat()) methodsOfPath.add(method as HTTPMethods);
    taken.set(route.url, methodsOfPath);
  });
  return () => {
    answering = true;
    // Every method Node reads (PROPFIND, SEARCH …), not only those Fastify knows (GET … TRACE, QUERY),
    // or those would be answered 404. CONNECT names no path.
    for (const method of METHODS) if (method !== 'CONNECT' && !app.supportedMethods.includes(method)) app.addHttpMethod(method);
    const methods = app.supportedMethods as HTTPMethods[];
    for (const [url, methodsOfPath] of taken) {
      // GET answers HEAD too (Fastify's exposeHeadRoutes).
      if (methodsOfPath.has('GET')) methodsOfPath.add('HEAD');
      const allow = [...methodsOfPath, 'OPTIONS'].join(', ');
      const others = methods.filter((method) => !methodsOfPath.has(method));
      app.route({
        method: others,
        url,
        handler: async (request, reply) => {
          reply.header('Allow', allow);
          return request.method === 'OPTIONS' ? reply.code(204).send() : reply.code(405).send(refusal);
        },
      });
    }
  };
}
