/**
 * The card processor's own pages the app shows (card image, card details, PIN form): addresses the card
 * API hands out, used only when they are on an allowlisted processor origin (AppConfig.processorOrigins,
 * exact origins), so a bad answer can never frame or load another site.
 */
import { readAppConfig } from '../../app/appConfig.ts';

/** The exact origins of the card processor, from the server's configuration in index.html. */
export const processorOrigins = (): readonly string[] => readAppConfig(document).processorOrigins;

/** Origins trusted for other purposes (the companion host, account linking). */
export const otherTrustedOrigins = (): readonly string[] => {
  const config = readAppConfig(document);
  return [...config.hostOrigins, ...config.accountLinkingOrigins];
};

export function isProcessorPage(url: string, origins: readonly string[] = processorOrigins()): boolean {
  try {
    return origins.includes(new URL(url).origin);
  } catch {
    return false;
  }
}
