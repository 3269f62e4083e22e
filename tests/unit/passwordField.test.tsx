/** The password field's "Show password" toggle: one name, aria-pressed for its state, the input's type follows. */
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { PasswordField } from '../../src/shared/components/PasswordField.tsx';
import { activateLocale } from '../../src/shared/i18n/locale.ts';

async function renderField(locale: 'en' | 'es' = 'en') {
  await activateLocale(locale);
  render(
    <I18nProvider i18n={i18n}>
      <PasswordField id="password" name="password" label="Password" error="Password is required." />
    </I18nProvider>,
  );
  return screen.getByLabelText('Password') as HTMLInputElement;
}

afterEach(async () => {
  await activateLocale('en');
});

describe('PasswordField', () => {
  it('hides the password until "Show password" is pressed, then hides it again', async () => {
    const input = await renderField();
    await userEvent.type(input, 'Sunflower-2027');
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(input.type).toBe('password');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    await userEvent.click(toggle);
    expect(input.type).toBe('text');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(input.value).toBe('Sunflower-2027');
    await userEvent.click(toggle);
    expect(input.type).toBe('password');
  });

  it('keeps the error tied to the input and names the toggle in Spanish', async () => {
    const input = await renderField('es');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe('Password is required.');
    expect(screen.getByRole('button', { name: 'Mostrar contraseña' }).getAttribute('aria-controls')).toBe('password');
  });
});
