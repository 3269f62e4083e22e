/**
 * The check every server test runs on its answers (tests/support/answerAudit.ts) catches an answer the
 * OpenAPI document does not list, and the document lists what any call can get (contract/openapi.ts).
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { sessionRoutes } from '../../contract/session/routes.ts';
import { statementsRoutes } from '../../contract/statements/routes.ts';
import { documentedAnswers, openApiDocument } from '../../contract/openapi.ts';
import { auditAnswers } from '../support/answerAudit.ts';

describe('documentedAnswers', () => {
  it("adds to a call's own answers what any call can get: 400 {2}, 413 {2} for a body, 500 {5}", () => {
    expect(documentedAnswers(sessionRoutes.signOut)).toEqual({ 200: [0], 400: [2], 413: [2], 500: [5] });
    expect(documentedAnswers(statementsRoutes.getStatements)).toMatchObject({ 400: [2], 500: [5] });
    expect(documentedAnswers(statementsRoutes.getStatements)).not.toHaveProperty('413');
  });

  it('is what the OpenAPI document lists, the answers only the server around a call gives marked x-any-call', () => {
    const signOut = (openApiDocument().paths as Record<string, Record<string, { responses: Record<string, Record<string, unknown>> }>>)['/api/v1/sign-out']!.post!.responses;
    expect(Object.keys(signOut).sort()).toEqual(['200', '400', '413', '500']);
    expect(signOut['200']!['x-any-call']).toBeUndefined();
    expect(signOut['413']).toMatchObject({ 'x-any-call': true, description: 'statusCode 2' });
  });
});

describe('auditAnswers', () => {
  it('finds an answer whose status or statusCode the document does not list, and passes the listed ones', async () => {
    const app = Fastify();
    const found = auditAnswers(app);
    app.post('/api/v1/sign-out', async (request, reply) => {
      const { status, statusCode } = request.body as { status: number; statusCode: number };
      return reply.code(status).send({ statusCode });
    });
    app.get('/api/v1/statement', async (_request, reply) => reply.type('text/html').send('<p>not a PDF</p>'));
    const signOut = (status: number, statusCode: number) => app.inject({ method: 'POST', url: '/api/v1/sign-out', payload: { status, statusCode } });

    await signOut(200, 0);
    await signOut(413, 2);
    expect(found()).toEqual([]);
    await signOut(200, 4);
    await signOut(418, 0);
    await app.inject({ method: 'GET', url: '/api/v1/statement' });
    expect(found()).toEqual([
      'signOut: 200 {statusCode: 4} (application/json; charset=utf-8)',
      'signOut: 418 {statusCode: 0} (application/json; charset=utf-8)',
      'getStatementPdf: 200 as text/html, not application/pdf',
    ]);
    await app.close();
  });
});
