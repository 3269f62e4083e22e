/// <reference types="vite/client" />

declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}

interface ImportMetaEnv {
  /** 'off' disables route guards (debug builds only). */
  readonly VITE_GUARDS?: string;
}
