/**
 * Every card screen, one lazy module for the card routes (routes.ts): the app's entry then lists their
 * files once, not once per route (docs/performance.md).
 */
export { ActivationView } from './activation/ActivationView.tsx';
export { ManageCardScreen, ManageCardsScreen } from './manage/ManageCardsView.tsx';
export { OrderCardView } from './order/OrderCardView.tsx';
export { ResetPinView } from './pin/ResetPinView.tsx';
export { ReplacementView } from './replacement/ReplacementView.tsx';
