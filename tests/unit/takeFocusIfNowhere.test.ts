/**
 * Where the focus goes after a failure that replaced or disabled the pressed button: to the target when
 * it is nowhere, after the error modal when that has it, and never taken from a control that has it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { takeFocusIfNowhere } from '../../src/shared/components/focusIsNowhere.ts';

function button(name: string, parent: HTMLElement = document.body): HTMLButtonElement {
  const element = document.createElement('button');
  element.textContent = name;
  parent.append(element);
  return element;
}

function openDialog(): HTMLDialogElement {
  const dialog = document.createElement('dialog');
  dialog.setAttribute('open', '');
  document.body.append(dialog);
  return dialog;
}

/** What a browser does when the modal closes: the attribute goes, then the close event comes. */
function close(dialog: HTMLDialogElement) {
  dialog.removeAttribute('open');
  dialog.dispatchEvent(new Event('close'));
}

afterEach(() => document.body.replaceChildren());

describe('takeFocusIfNowhere', () => {
  it('focuses the target when the focus is on the page', () => {
    const target = button('Try again');
    takeFocusIfNowhere(() => target);
    expect(document.activeElement).toBe(target);
  });

  it('leaves the focus on a control that has it', () => {
    const verify = button('Verify');
    const target = button('Try again');
    verify.focus();
    takeFocusIfNowhere(() => target);
    expect(document.activeElement).toBe(verify);
  });

  it('waits for the error modal to close, then takes the focus from it', () => {
    const target = button('Try again');
    const modal = openDialog();
    button('OK', modal).focus();
    takeFocusIfNowhere(() => target);
    expect(document.activeElement?.textContent).toBe('OK');
    close(modal);
    expect(document.activeElement).toBe(target);
  });

  it('leaves the focus where the closing modal gave it back (the pressed button, still there)', () => {
    const verify = button('Verify');
    const target = button('Try again');
    const modal = openDialog();
    button('OK', modal).focus();
    takeFocusIfNowhere(() => target);
    verify.focus();
    close(modal);
    expect(document.activeElement).toBe(verify);
  });

  it('does not wait for a modal that holds the target (the auth modal), nor take the focus inside it', () => {
    const authModal = openDialog();
    const verify = button('Verify', authModal);
    const target = button('first box', authModal);
    verify.focus();
    takeFocusIfNowhere(() => target);
    close(authModal);
    expect(document.activeElement).toBe(verify);
  });

  it('stops waiting when cleaned up (the notice went before the modal closed)', () => {
    const target = button('Try again');
    const modal = openDialog();
    button('OK', modal).focus();
    const cleanup = takeFocusIfNowhere(() => target);
    cleanup?.();
    close(modal);
    expect(document.activeElement).not.toBe(target);
  });
});
