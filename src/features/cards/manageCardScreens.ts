/**
 * The screens of managing cards (the cards, and a card's PIN), one lazy module for the three routes:
 * the app's entry then lists their files once, not once per route (docs/performance.md).
 */
export { ManageCardScreen, ManageCardsScreen } from './manage/ManageCardsView.tsx';
export { ResetPinView } from './pin/ResetPinView.tsx';
