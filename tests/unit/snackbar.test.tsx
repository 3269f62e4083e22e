/** The snackbar's live region is in the page before its message, so screen readers announce the message. */
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Snackbar } from '../../src/shared/components/Snackbar.tsx';
import { activateLocale } from '../../src/shared/i18n/locale.ts';

describe('Snackbar', () => {
  it('puts the message into the live region that was already there, and empties it when dismissed', async () => {
    await activateLocale('en');
    const onDismiss = vi.fn();
    const view = (message: string | null) => (
      <I18nProvider i18n={i18n}>
        <Snackbar message={message} onDismiss={onDismiss} />
      </I18nProvider>
    );
    const { rerender } = render(view(null));
    const region = screen.getByRole('status');
    expect(region.textContent).toBe('');
    expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull();

    rerender(view('Account number copied.'));
    expect(screen.getByRole('status')).toBe(region);
    expect(region.textContent).toBe('Account number copied.');
    screen.getByRole('button', { name: 'Dismiss' }).click();
    expect(onDismiss).toHaveBeenCalledOnce();

    rerender(view(null));
    expect(screen.getByRole('status')).toBe(region);
    expect(region.textContent).toBe('');
  });
});
