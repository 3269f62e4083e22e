/**
 * Work done once the answer has gone, so that how long an answer takes says nothing: /reset-password
 * texts the code this way, else it would answer later for an email with an account than for one
 * without (the SMS gateway's round trip), and a stranger could time it to learn who has an account.
 * A task's failure is logged, never thrown, a failed query without its parameters (the reset code's
 * text and phone were among them). `settled()` waits for the tasks under way: the sandbox's
 * outboxes wait for them (a text on its way has arrived when a tester looks at the phone), and so does
 * the server's close.
 */
import type { FastifyBaseLogger } from 'fastify';
import { loggableError } from './errorLog.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's (buildApp): the sandbox's outboxes and tests wait for it to settle. */
    afterAnswer: AfterAnswer;
  }
}

export type AfterAnswer = {
  run(log: FastifyBaseLogger, what: string, task: () => Promise<void>): void;
  settled(): Promise<void>;
};

export function createAfterAnswer(): AfterAnswer {
  const running = new Set<Promise<void>>();
  return {
    run(log, what, task) {
      const done: Promise<void> = task()
        .catch((error: unknown) => log.error(loggableError(error as Error), `${what} failed`))
        .finally(() => running.delete(done));
      running.add(done);
    },
    async settled() {
      // Tasks that start while these end are waited for too.
      while (running.size > 0) await Promise.all(running);
    },
  };
}
