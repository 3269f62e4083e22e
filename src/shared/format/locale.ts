import type { Locale } from '../../../machines/session/session.ts';

export type { Locale };
