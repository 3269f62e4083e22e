/**
 * Every screen's own document title (WCAG 2.2 SC 2.4.2), by its route's full path; the app shell sets
 * `<title>` from the deepest matched route that has one (useScreenTitle). tests/flows/routes.test.tsx
 * checks that every route with a screen has a title, in English and Spanish. A title says what the
 * screen's heading says. A screen whose heading its query chooses (the ATM PIN on /reset-pin), that is
 * shown in place of another at the same address (reporting a card lost), or that ends a flow (a receipt,
 * a reset done, an application closed: src/shared/screens/ResultHeading.tsx) gives itself its own title
 * while it is up (useOwnTitle, src/shared/screens/documentTitle.ts).
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';

export const screenTitles: Record<string, MessageDescriptor> = {
  '/signin/{-$step}': msg`Sign in`,
  '/unlock': msg`Unlock`,
  '/reset-unlock-code/{-$step}': msg`Reset your unlock code`,
  '/reset-password/{-$step}': msg`Reset your password`,
  '/register/{-$step}': msg`Open an account`,
  '/home': msg`Home`,
  '/home1': msg`Home`,
  '/home2': msg`Home`,
  '/manage-account': msg`Manage account`,
  '/manage-card': msg`Manage card`,
  '/manage-cards': msg`Manage cards`,
  '/activate/{-$step}': msg`Activate your card`,
  '/order-card/{-$step}': msg`Order a card`,
  '/replacement-card/{-$step}': msg`Replace a damaged card`,
  '/reset-pin/{-$step}': msg`Set your PIN`,
  '/faq/': msg`Help`,
  '/faq/$': msg`Help`,
  '/customer-support': msg`Customer support`,
  '/preview': msg`Preview`,
  '/change-address/{-$step}': msg`Change your address`,
  '/change-phone-number/{-$step}': msg`Change your phone number`,
  '/statements': msg`Monthly statements`,
  '/tax': msg`Tax documents`,
  '/transactions': msg`Activity`,
  '/transactions/': msg`Activity`,
  '/transactions/detail': msg`Transaction details`,
  '/add-money': msg`Add money`,
  '/load-cash': msg`Load cash`,
  '/cash-load-map': msg`Cash load locations`,
  '/transfer-money': msg`Transfer money`,
  '/direct-deposit/': msg`Direct deposit`,
  '/direct-deposit/form/{-$step}': msg`Direct deposit form`,
  '/direct-deposit/where': msg`Where is my deposit?`,
  '/manage-prime': msg`Manage Prime`,
  '/manage-snapback': msg`Manage SNAPback`,
};

/** An address outside the route table. */
export const notFoundTitle = msg`Page not found`;

