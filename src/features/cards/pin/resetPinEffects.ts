/** What the PIN chart declares and the app supplies: the card calls, the processor's messages, the way back. */
import { fromPromise } from 'xstate';
import type { PinKind } from '../../../../contract/cards/types.ts';
import { StatusCode } from '../../../../contract/shared/statusCodes.ts';
import { resetPinMachine, type PinFormAnswer, type ProcessorResult } from '../../../../machines/cards/resetPin.ts';
import type { AppContext } from '../../../app/context.ts';
import { cardsCalls } from '../cardsCalls.ts';
import { isProcessorPage, otherTrustedOrigins, processorOrigins } from '../processorPages.ts';
import { listenToProcessorMessages } from './processorMessages.ts';

/** The PIN set when the query does not ask for the ATM PIN. */
export const cardPin: PinKind = 'card';
/** Where the PIN screen returns when no returnTo was given. */
export const defaultReturnTo = '/manage-cards';

export function resetPinChart(
  { api, session, errors, embedded }: Pick<AppContext, 'api' | 'session' | 'errors' | 'embedded'>,
  options: { frame: () => Window | null; returnToCaller: () => void },
) {
  const calls = cardsCalls(api);
  return resetPinMachine.provide({
    actors: {
      getPinChangeFormUrl: fromPromise(async ({ input }): Promise<PinFormAnswer> => {
        const answer = await calls.getPinChangeFormUrl(input.cardId, input.pin, session.getSnapshot().context.locale);
        if (answer.statusCode === StatusCode.SUCCESS && 'url' in answer && answer.url !== '' && !isProcessorPage(answer.url)) {
          // Never frame a page that is not the processor's own.
          errors.error('PIN form is not on a processor origin');
          return { ...answer, url: '' };
        }
        return answer;
      }),
      // The first result of the processor's frame; leaving the form (the actor stopped) stops listening.
      awaitProcessorResult: fromPromise<ProcessorResult>(
        ({ signal }) =>
          new Promise((resolve) => {
            const stop = listenToProcessorMessages(window, {
              processorOrigins: processorOrigins(),
              otherTrustedOrigins: otherTrustedOrigins(),
              frame: options.frame,
              onResult: (code) => {
                stop();
                resolve(typeof code === 'number' ? code : null);
              },
              // Embedded, the host bridge already reports messages from unknown origins.
              onUnknownOrigin: (origin) => {
                if (!embedded) errors.warning('Message from an unknown origin ignored', { origin });
              },
            });
            signal.addEventListener('abort', stop);
          }),
      ),
      commitPinChange: fromPromise(({ input }) => calls.commitPinChange(input.cardId, input.pin)),
    },
    actions: {
      returnToCaller: () => {
        session.send({ type: 'snackbar.show', message: 'pinSet' });
        options.returnToCaller();
      },
    },
  });
}
