/** A failed query is logged by its SQL text, SQLSTATE and constraint, never its parameters. */
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { loggableError, sqlStateOf } from '../../server/shared/errorLog.ts';

const postgresError = Object.assign(new Error('duplicate key value violates unique constraint "users_email" Key (email)=(rosa@example.com)'), {
  code: '23505',
  constraint: 'users_email',
});

describe('loggableError', () => {
  it('keeps a failed query\'s SQL, SQLSTATE and constraint, and drops its parameters and messages', () => {
    const failed = new DrizzleQueryError('insert into users (email) values ($1)', ['rosa@example.com'], postgresError);
    const logged = JSON.stringify(loggableError(failed));
    expect(logged).toContain('insert into users (email) values ($1)');
    expect(logged).toContain('23505');
    expect(logged).toContain('users_email');
    expect(logged).not.toContain('rosa@example.com');
  });

  it('reads the SQLSTATE wrapped or not, and leaves other errors as they are', () => {
    expect(sqlStateOf(postgresError)).toBe('23505');
    expect(sqlStateOf(new DrizzleQueryError('select 1', [], postgresError))).toBe('23505');
    const plain = new Error('boom');
    expect(sqlStateOf(plain)).toBeUndefined();
    expect(loggableError(plain)).toEqual({ err: plain });
  });
});
