/**
 * The sandbox companion host (server/partners/companion-host/) on its own origin: the benefits app's
 * phone frame with the card app in an iframe, and the tester panel that sets what the host answers
 * and shows what the app asked for. English-only tester UI (it is not part of the card app).
 *
 *   const host = await CompanionHostPage.open(page);
 *   await host.setUser({ uuid: '' });                  // a signed-out companion user; the app reloads
 *   await expect(host.app.getByRole('heading', { level: 1 })).toBeVisible();
 *   await expect(host.lastOpenedUrl).toHaveText('https://…');
 */
import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';
import type { BenefitKind, NotificationPermission } from '../../contract/hostProtocol.ts';
import {
  defaultCompanionUser,
  signedOutCompanionUser,
  type CompanionUser,
  type PermissionAnswer,
} from '../../server/partners/companion-host/user.ts';
import { companionHostURL } from '../support/origins.ts';

export { defaultCompanionUser, signedOutCompanionUser, type CompanionUser };

/** Who sent a logged message: the card app, the host, or a window the host ignored. */
export type MessageDirection = 'app → host' | 'host → app' | 'other → host';

export class CompanionHostPage {
  constructor(readonly page: Page) {}

  /** Opens the host page and waits for the card app frame to load once. */
  static async open(page: Page): Promise<CompanionHostPage> {
    const host = new CompanionHostPage(page);
    await host.goto();
    return host;
  }

  /** `origin`: the host's address, by default as localhost (the sandbox also answers as 127.0.0.1). */
  async goto(origin = companionHostURL): Promise<void> {
    await this.page.goto(`${origin}/`);
    await expect(this.frame).toBeVisible();
    await expect(this.appLoads).not.toHaveText('0');
  }

  /** The iframe element itself (its src, size). */
  get frame(): Locator {
    return this.page.locator('iframe[name="card-app"]');
  }

  /** The card app inside the frame: use it like `page` (getByRole, getByLabel …). */
  get app(): FrameLocator {
    return this.page.frameLocator('iframe[name="card-app"]');
  }

  get panel(): Locator {
    return this.page.getByRole('main', { name: 'Tester panel' });
  }

  // --- user ---------------------------------------------------------------------------------------

  get userForm(): Locator {
    return this.panel.getByRole('form', { name: 'Companion user' });
  }

  get applyButton(): Locator {
    return this.userForm.getByRole('button', { name: 'Apply and reload the card app', exact: true });
  }

  /**
   * Sets the companion user (fields not given keep what the form shows), applies it and waits for
   * the card app to load again. `setUser({ uuid: '' })` is a signed-out companion user;
   * `setUser(signedOutCompanionUser)` clears everything.
   */
  async setUser(user: Partial<CompanionUser>): Promise<void> {
    const form = this.userForm;
    const text: [keyof CompanionUser, string][] = [
      ['uuid', 'UUID'],
      ['email', 'Email'],
      ['authSource', 'Auth source'],
      ['ebtAccountId', 'EBT account id'],
      ['ebtUid', 'EBT uid'],
    ];
    for (const [key, label] of text) {
      const value = user[key];
      if (typeof value === 'string') await form.getByLabel(label, { exact: true }).fill(value);
    }
    if (user.language !== undefined) await form.getByLabel('Companion app language', { exact: true }).selectOption(user.language);
    if (user.tokenTtlSeconds !== undefined) {
      await form.getByLabel('Access token lifetime (seconds)', { exact: true }).fill(String(user.tokenTtlSeconds));
    }
    if (user.eligibleBenefits) {
      const benefits = form.getByRole('group', { name: 'Eligible benefits' });
      for (const kind of ['EBT', 'WIC', 'CTC', 'SSI_SSDI'] satisfies BenefitKind[]) {
        await benefits.getByLabel(kind, { exact: true }).setChecked(user.eligibleBenefits.includes(kind));
      }
    }
    await this.applyAndWaitForReload(() => this.applyButton.click());
  }

  // --- notifications ------------------------------------------------------------------------------

  get notificationPermission(): Locator {
    return this.panel.getByLabel('Notification permission', { exact: true });
  }

  /** Changes the permission in the host; the host pushes `notificationPermission.changed` to the app. */
  async setNotificationPermission(permission: NotificationPermission): Promise<void> {
    const before = await this.notificationPermission.inputValue();
    await this.notificationPermission.selectOption(permission);
    await expect(this.notificationPermission).toHaveValue(permission);
    if (before !== permission) {
      await expect(this.message('host → app', 'notificationPermission.changed').first()).toContainText(`"${permission}"`);
    }
  }

  /** What the simulated user answers when the app asks for permission (ENABLED or DISABLED). */
  async answerPermissionRequestWith(answer: PermissionAnswer): Promise<void> {
    await this.panel
      .getByRole('group', { name: 'When the app asks for permission, the user will:' })
      .getByLabel(answer === 'allow' ? 'Allow' : 'Deny', { exact: true })
      .check();
  }

  // --- what the app asked for ---------------------------------------------------------------------

  get lastOpenedUrl(): Locator {
    return this.panel.getByLabel('Last URL the app asked to open', { exact: true });
  }

  get lastCopiedText(): Locator {
    return this.panel.getByLabel('Last text copied', { exact: true });
  }

  get lastHostRoute(): Locator {
    return this.panel.getByLabel('Last host route requested', { exact: true });
  }

  /** How many times the card app frame has loaded (goes up on every reload). */
  get appLoads(): Locator {
    return this.panel.getByLabel('Card app loads', { exact: true });
  }

  async deviceId(): Promise<string> {
    const output = this.panel.getByLabel('Device id', { exact: true });
    await expect(output).not.toBeEmpty();
    return (await output.textContent()) ?? '';
  }

  /** The state the app saved through the host (parsed), or null when none is kept. */
  async savedState(): Promise<Record<string, unknown> | null> {
    const text = (await this.panel.getByLabel('Saved state (kept by the host)', { exact: true }).textContent()) ?? '';
    return text.trim() === '' ? null : (JSON.parse(text) as Record<string, unknown>);
  }

  /** Clears the state the host keeps for the app and reloads it. */
  async forgetSavedState(): Promise<void> {
    await this.applyAndWaitForReload(() =>
      this.panel.getByRole('button', { name: "Forget the card app's saved state", exact: true }).click(),
    );
  }

  // --- message log --------------------------------------------------------------------------------

  /** Every logged message, newest first. Each reads "<direction> <type> <JSON summary>". */
  get messages(): Locator {
    return this.panel.getByRole('list', { name: 'Messages exchanged' }).getByRole('listitem');
  }

  /**
   * Logged messages of one direction and type, newest first. Queries log as their type with `#id`,
   * replies as `reply to <query type>`, malformed ones as `rejected`, other windows' as `ignored`.
   */
  message(direction: MessageDirection, type: string): Locator {
    return this.messages.filter({ hasText: direction }).filter({
      has: this.page.locator('.type', { hasText: new RegExp(`^${type.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }),
    });
  }

  private async applyAndWaitForReload(action: () => Promise<void>): Promise<void> {
    const before = Number(await this.appLoads.textContent());
    await action();
    // The form's error (shown only when a field is invalid, e.g. a token lifetime out of range).
    await expect(this.panel.getByRole('alert')).toHaveCount(0);
    await expect(this.appLoads).toHaveText(String(before + 1));
  }
}
