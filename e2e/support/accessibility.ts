/**
 * axe on a screen, the one way every spec checks it: WCAG 2.0 and 2.1 A and AA and WCAG 2.2 AA, and
 * no sideways scrolling at the 360 px phone width.
 *
 * axe runs in each frame by itself (`iframes: false`), and the violations are joined here, each frame's
 * targets prefixed with its iframe. @axe-core/playwright is not used: it gives each child frame one
 * second to load axe and then leaves that frame out without a word, which on a loaded machine left the
 * card app inside the companion host unchecked; and it joins the results in a new tab each time, which
 * made axe about two fifths of the browser tests' time (docs/performance.md).
 */
import axe from 'axe-core';
import { expect, type Frame, type Page } from '@playwright/test';

const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export type AxeViolation = { rule: string; impact: string | null | undefined; help: string; targets: string[] };

// Only violations are gathered in full; passes and the rest keep one node each.
const runOptions: axe.RunOptions = { runOnly: { type: 'tag', values: wcagTags }, resultTypes: ['violations'], iframes: false };

type WithAxe = { axe?: typeof axe };

/** One document's violations, axe loaded into it once (it stays for later screens of the same page). */
async function documentViolations(frame: Frame): Promise<axe.Result[]> {
  if (!(await frame.evaluate(() => Boolean((window as WithAxe).axe)))) await frame.evaluate(axe.source);
  return frame.evaluate(async (options) => (await (window as WithAxe).axe!.run(document, options)).violations, runOptions);
}

/** How a target inside `frame` is named from `root`: the iframes on the way, outermost first. */
function framePath(root: Frame, frame: Frame): string[] {
  const path: string[] = [];
  for (let current = frame; current !== root; current = current.parentFrame()!) {
    const name = current.name();
    path.unshift(name ? `iframe[name="${name}"]` : 'iframe');
  }
  return path;
}

function descendants(frame: Frame): Frame[] {
  return [frame, ...frame.childFrames().flatMap(descendants)];
}

/** axe's violations on the page and every frame in it, or only in one frame (e.g. the card app's) and its frames. */
export async function axeViolations(where: Page | Frame): Promise<AxeViolation[]> {
  const root = 'mainFrame' in where ? where.mainFrame() : where;
  const byRule = new Map<string, AxeViolation>();
  for (const frame of descendants(root)) {
    const prefix = framePath(root, frame).map((step) => `${step} `).join('');
    for (const violation of await documentViolations(frame)) {
      const found = byRule.get(violation.id) ?? { rule: violation.id, impact: violation.impact, help: violation.help, targets: [] };
      found.targets.push(...violation.nodes.map((node) => prefix + node.target.join(' ')));
      byRule.set(violation.id, found);
    }
  }
  return [...byRule.values()];
}

/** No axe violations and nothing wider than the 360 px phone; `what` names the screen in a failure. */
export async function expectAccessible(page: Page, what = 'the screen'): Promise<void> {
  expect(await axeViolations(page), `${what}: axe violations`).toEqual([]);
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `${what}: no horizontal scrolling at 360 px`).toBeLessThanOrEqual(360);
}
