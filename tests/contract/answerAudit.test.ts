/**
 * The check every server test runs on its answers (tests/support/answerAudit.ts) catches an answer the
 * OpenAPI document does not describe, and the document lists what any call can get (contract/openapi.ts).
 */
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { sessionRoutes } from '../../contract/session/routes.ts';
import { statementsRoutes } from '../../contract/statements/routes.ts';
import { documentedAnswers, openApiDocument } from '../../contract/openapi.ts';
import { auditAnswers } from '../support/answerAudit.ts';

describe('documentedAnswers', () => {
  it("adds to a call's own answers what any call can get: 400, 417 and 421 {2}, 413 and 415 {2} for a body, 500 {5}, 503 {5} while closing", () => {
    expect(documentedAnswers(sessionRoutes.signOut)).toEqual({ 200: [0], 400: [2], 413: [2], 415: [2], 417: [2], 421: [2], 500: [5], 503: [5] });
    expect(documentedAnswers(statementsRoutes.getStatements)).toMatchObject({ 400: [2], 417: [2], 421: [2], 500: [5], 503: [5] });
    expect(documentedAnswers(statementsRoutes.getStatements)).not.toHaveProperty('413');
    expect(documentedAnswers(statementsRoutes.getStatements)).not.toHaveProperty('415');
  });

  it('is what the OpenAPI document lists, the answers only the server around a call gives marked x-any-call', () => {
    const signOut = (openApiDocument().paths as Record<string, Record<string, { responses: Record<string, Record<string, unknown>> }>>)['/api/v1/sign-out']!.post!.responses;
    expect(Object.keys(signOut).sort()).toEqual(['200', '400', '413', '415', '417', '421', '500', '503']);
    expect(signOut['200']!['x-any-call']).toBeUndefined();
    expect(signOut['413']).toMatchObject({ 'x-any-call': true, description: 'statusCode 2' });
  });
});

describe('auditAnswers', () => {
  it('finds an answer whose status, statusCode or fields the document does not describe, or a field no type declares, and passes the described ones', async () => {
    const app = Fastify();
    const found = auditAnswers(app);
    const echo = async (request: FastifyRequest, reply: FastifyReply) => {
      const { status, body } = request.body as { status: number; body: object };
      return reply.code(status).send(body);
    };
    app.post('/api/v1/sign-out', echo);
    app.post('/api/v1/sign-in', echo);
    app.get('/api/v1/statement', async (_request, reply) => reply.type('text/html').send('<p>not a PDF</p>'));
    const answer = (url: string, status: number, body: object) => app.inject({ method: 'POST', url, payload: { status, body } });

    await answer('/api/v1/sign-out', 200, { statusCode: 0 });
    await answer('/api/v1/sign-out', 413, { statusCode: 2 });
    await answer('/api/v1/sign-in', 200, { statusCode: 0, access: 'a', refresh: 'r', isInternal: false });
    await answer('/api/v1/sign-in', 401, { statusCode: 200, attemptsLeft: 3 });
    expect(found()).toEqual([]);

    await answer('/api/v1/sign-out', 200, { statusCode: 4 });
    await answer('/api/v1/sign-out', 418, { statusCode: 0 });
    await answer('/api/v1/sign-in', 401, { statusCode: 200, attemptsLeft: '3' });
    await answer('/api/v1/sign-in', 200, { statusCode: 0, access: 'a', refresh: 'r', isInternal: false, passwordHash: 'scrypt$…' });
    await app.inject({ method: 'GET', url: '/api/v1/statement' });
    expect(found()).toEqual([
      'signOut: 200 {"statusCode":4}: /statusCode must be equal to one of the allowed values',
      'signOut: 418, a status it does not list',
      'signIn: 401 {"statusCode":200,"attemptsLeft":"3"}: /attemptsLeft must be number',
      'signIn: 200 {"statusCode":0,"access":"a","refresh":"r","isInternal":false,"passwordHash":"scrypt$…"}: / must NOT have additional properties',
      'getStatementPdf: 200 as text/html, not application/pdf',
    ]);
    await app.close();
  });
});
