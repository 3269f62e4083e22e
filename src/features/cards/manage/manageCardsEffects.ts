/** What the cards screen's charts declare and the app supplies: the card calls (home data read again after a lock with no answer), and the lock chart's error report. */
import type { Card } from '../../../../contract/cards/types.ts';
import { StatusCode } from '../../../../contract/shared/statusCodes.ts';
import { fromPromise } from 'xstate';
import { cardLockMachine } from '../../../../machines/cards/cardLock.ts';
import { lostStolenMachine } from '../../../../machines/cards/lostStolen.ts';
import { manageCardsMachine, type CardUrlAnswer } from '../../../../machines/cards/manageCards.ts';
import type { ErrorReporter } from '../../../app/errorReporting.ts';
import type { Api } from '../../../shared/api/client.ts';
import type { ResetPinSearch } from '../routes.ts';
import { cardsCalls } from '../cardsCalls.ts';
import { isProcessorPage } from '../processorPages.ts';

/** A processor page the card API named, kept only when it is on the processor's own origin ('' otherwise). */
const onProcessorOrigin = (answer: CardUrlAnswer): CardUrlAnswer =>
  answer.statusCode === StatusCode.SUCCESS && 'url' in answer && answer.url !== '' && !isProcessorPage(answer.url)
    ? { ...answer, url: '' }
    : answer;

/** The cards screen's chart with its calls and the lock and lost-or-stolen charts it runs. */
export function manageCardsChart(api: Api, errors: ErrorReporter, locale: () => 'en' | 'es') {
  const calls = cardsCalls(api);
  return manageCardsMachine.provide({
    actors: {
      getHome: fromPromise(() => api.getHome()),
      getCardImageUrl: fromPromise(async ({ input }) => onProcessorOrigin(await calls.getCardImageUrl(input.id, locale()))),
      // The processor's page in the reader's language, as the PIN form is.
      getCardDetailsUrl: fromPromise(async ({ input }) => onProcessorOrigin(await calls.getCardDetailsUrl(input.id, locale()))),
      cardLock: cardLockMachine.provide({
        actors: {
          freezeCard: fromPromise(({ input }) => calls.freezeCard(input.id)),
          unfreezeCard: fromPromise(({ input }) => calls.unfreezeCard(input.id)),
          // After a lock or unlock with no answer: quiet, as they are (the card says what came of it).
          getHome: fromPromise(() => api.getHome({ suppressErrorModal: true })),
        },
        actions: {
          // Spec §4: a card answered that is not in state raises; reported as an error.
          reportCardNotInState: (_, cardId) => errors.error('Card lock answered a card not in state', { cardId }),
        },
      }),
      lostStolen: lostStolenMachine.provide({ actors: { reportCard: fromPromise(({ input }) => calls.reportCard(input)) } }),
    },
  });
}

/** Where a PIN set from card `index` of the list returns: this screen, on that card. */
export const returnToCard = (index: number) => `/manage-cards?initialSlide=${index}`;

/** The search of a link to /reset-pin for the card's PIN or its ATM PIN. */
export const pinLinkSearch = (card: Card, index: number, pin: 'card' | 'atm'): ResetPinSearch =>
  pin === 'atm' ? { cardId: card.id, pin, returnTo: returnToCard(index) } : { cardId: card.id, returnTo: returnToCard(index) };
