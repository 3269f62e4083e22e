/**
 * The screens of getting a physical card (order, activate, replace), one lazy module for the three
 * routes: the app's entry then lists their files once, not once per route (docs/performance.md).
 */
export { ActivationView } from './activation/ActivationView.tsx';
export { OrderCardView } from './order/OrderCardView.tsx';
export { ReplacementView } from './replacement/ReplacementView.tsx';
