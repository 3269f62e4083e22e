/**
 * The search param the sign-in screen's "Forgot your password?" link sets: sign in again afterwards.
 * Its own module so the sign-in screen does not load the reset-password chart.
 */
export const thenSignInParam = { then: 'signin' } as const;
