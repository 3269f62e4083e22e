/** Work done once the answer has gone (server/shared/afterAnswer.ts): run at once, waited for by settled(), failures logged. */
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { createAfterAnswer } from '../../server/shared/afterAnswer.ts';

const logger = () => ({ error: vi.fn() }) as unknown as FastifyBaseLogger & { error: ReturnType<typeof vi.fn> };

describe('afterAnswer', () => {
  it('starts a task at once and settles only when it and the tasks it started have ended', async () => {
    const afterAnswer = createAfterAnswer();
    const log = logger();
    const steps: string[] = [];
    let release!: () => void;
    afterAnswer.run(log, 'first', async () => {
      steps.push('first started');
      await new Promise<void>((resolve) => (release = resolve));
      afterAnswer.run(log, 'second', async () => {
        await Promise.resolve();
        steps.push('second ended');
      });
      steps.push('first ended');
    });
    expect(steps).toEqual(['first started']);
    let settled = false;
    const settling = afterAnswer.settled().then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    release();
    await settling;
    expect(steps).toEqual(['first started', 'first ended', 'second ended']);
    expect(log.error).not.toHaveBeenCalled();
  });

  it('logs a failed task, and is settled after it', async () => {
    const afterAnswer = createAfterAnswer();
    const log = logger();
    const failure = new Error('gateway down');
    afterAnswer.run(log, 'texting a password reset code', async () => {
      throw failure;
    });
    await afterAnswer.settled();
    expect(log.error).toHaveBeenCalledWith({ err: failure }, 'texting a password reset code failed');
    await expect(afterAnswer.settled()).resolves.toBeUndefined();
  });
});
