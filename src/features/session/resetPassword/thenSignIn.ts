/**
 * The search param the sign-in screen's "Forgot your password?" link sets: sign in again afterwards.
 * Its own module so the sign-in screen does not load the reset-password chart.
 */
export const thenSignInParam = { then: 'signin' } as const;

/**
 * What sign-in and password reset hand each other in the history entry's state (never the address):
 * the email typed on one, so it is not typed again on the other (WCAG 2.2 SC 3.3.7), and that the
 * password was just changed.
 */
export type HandedOver = { email?: string; passwordChanged?: boolean };
