/**
 * The snackbar's live region is in the page before its message, so screen readers announce the
 * message; while it shows, the page keeps room for its height as drawn.
 */
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Snackbar } from '../../src/shared/components/Snackbar.tsx';
import { activateLocale } from '../../src/shared/i18n/locale.ts';

describe('Snackbar', () => {
  it('puts the message into the live region that was already there, and empties it when dismissed', async () => {
    await activateLocale('en');
    const onDismiss = vi.fn();
    const view = (message: string | null) => (
      <I18nProvider i18n={i18n}>
        <Snackbar message={message} onDismiss={onDismiss} onHold={() => {}} />
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

  it('is held while a pointer is over it or the focus is on its Dismiss, and let go only once both have left', async () => {
    await activateLocale('en');
    const held: boolean[] = [];
    render(
      <I18nProvider i18n={i18n}>
        <button type="button">Copy account number</button>
        <Snackbar message="Account number copied." onDismiss={() => {}} onHold={(now) => held.push(now)} />
      </I18nProvider>,
    );
    const bar = screen.getByRole('status').parentElement!;
    fireEvent.pointerEnter(bar, { pointerType: 'mouse' });
    expect(held).toEqual([true]);
    act(() => screen.getByRole('button', { name: 'Dismiss' }).focus());
    // The pointer leaves, the focus stays: still held.
    fireEvent.pointerLeave(bar, { pointerType: 'mouse' });
    expect(held).toEqual([true, true, true]);
    act(() => screen.getByRole('button', { name: 'Copy account number' }).focus());
    expect(held.at(-1)).toBe(false);
  });

  it('a finger swiping sideways over a fifth of the screen width dismisses it, either way; a shorter or mouse one does not', async () => {
    await activateLocale('en');
    const onDismiss = vi.fn();
    render(
      <I18nProvider i18n={i18n}>
        <Snackbar message="Account number copied." onDismiss={onDismiss} onHold={() => {}} />
      </I18nProvider>,
    );
    const bar = screen.getByRole('status').parentElement!;
    const fifth = innerWidth / 5;
    const swipe = (from: number, to: number, pointerType = 'touch') => {
      fireEvent.pointerDown(bar, { clientX: from, pointerType });
      fireEvent.pointerUp(bar, { clientX: to, pointerType });
    };
    swipe(200, 200 - fifth);
    // A mouse dragging over the message selects its text.
    swipe(10, 10 + fifth + 50, 'mouse');
    expect(onDismiss).not.toHaveBeenCalled();

    swipe(10, 10 + fifth + 1);
    expect(onDismiss).toHaveBeenCalledOnce();
    swipe(300, 300 - fifth - 1);
    expect(onDismiss).toHaveBeenCalledTimes(2);
  });

  it('while it shows, keeps room for its drawn height and 16px above and below it; none once it goes', async () => {
    await activateLocale('en');
    let resized: (() => void) | undefined;
    let observed: Element | undefined;
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(callback: () => void) {
          resized = callback;
        }
        observe(element: Element) {
          observed = element;
        }
        unobserve() {}
        disconnect() {
          resized = undefined;
        }
      },
    );
    const room = () => document.documentElement.style.getPropertyValue('--snackbar-room');
    const view = (message: string | null) => (
      <I18nProvider i18n={i18n}>
        <Snackbar message={message} onDismiss={() => {}} onHold={() => {}} />
      </I18nProvider>
    );
    const { rerender } = render(view(null));
    expect(resized).toBeUndefined();

    rerender(view("No pudimos copiar el número de cuenta."));
    // Drawn on five lines at 200% zoom: 160px high.
    Object.defineProperty(observed!, 'offsetHeight', { configurable: true, value: 160 });
    act(() => resized!());
    expect(room()).toBe('192px');
    Object.defineProperty(observed!, 'offsetHeight', { configurable: true, value: 64 });
    act(() => resized!());
    expect(room()).toBe('96px');

    rerender(view(null));
    expect(room()).toBe('');
    expect(resized).toBeUndefined();
    vi.unstubAllGlobals();
  });
});
