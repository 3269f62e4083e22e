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
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type axe from 'axe-core';
import { expect, type Frame, type Locator, type Page } from '@playwright/test';

// The minified build: `axe.source` is the readable one, 1.5 MB against 0.65 MB, sent to and parsed in
// every document checked. The embedded, registration and accessibility specs took 13% less CPU with it.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export type AxeViolation = { rule: string; impact: string | null | undefined; help: string; targets: string[] };

// Only violations are gathered in full; passes and the rest keep one node each.
const runOptions: axe.RunOptions = { runOnly: { type: 'tag', values: wcagTags }, resultTypes: ['violations'], iframes: false };

type WithAxe = { axe?: typeof axe };

/** One document's violations, axe loaded into it once (it stays for later screens of the same page). */
async function documentViolations(frame: Frame): Promise<axe.Result[]> {
  if (!(await frame.evaluate(() => Boolean((window as WithAxe).axe)))) await frame.evaluate(axeSource);
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

/** WCAG 2.2 contrast ratio of two `rgb(…)` colours as getComputedStyle gives them. */
function contrastRatio(first: string, second: string): number {
  const luminance = (color: string) => {
    const [r, g, b] = color.match(/\d+(\.\d+)?/g)!.slice(0, 3).map((channel) => {
      const value = Number(channel) / 255;
      return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [lighter, darker] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return (lighter! + 0.05) / (darker! + 0.05);
}

/**
 * A focused control's ring as seen (axe does not check it): its contrast with what it is drawn on,
 * the first ancestor with a background (WCAG 1.4.11 asks 3:1), and whether it lies inside the window
 * (a frame's top edge cut the embedded header's). A control without a ring drawn (not
 * `:focus-visible`, or no outline) has contrast 0.
 */
export async function focusRing(control: Locator): Promise<{ contrast: number; inside: boolean }> {
  const ring = await control.evaluate((element) => {
    const style = getComputedStyle(element);
    let under: Element | null = element.parentElement;
    while (under && getComputedStyle(under).backgroundColor === 'rgba(0, 0, 0, 0)') under = under.parentElement;
    const reach = parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth);
    const box = element.getBoundingClientRect();
    const drawn = element.matches(':focus-visible') && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    return {
      drawn,
      color: style.outlineColor,
      on: under ? getComputedStyle(under).backgroundColor : 'rgb(255, 255, 255)',
      inside: box.top - reach >= 0 && box.left - reach >= 0 && box.right + reach <= innerWidth,
    };
  });
  return { contrast: ring.drawn ? contrastRatio(ring.color, ring.on) : 0, inside: ring.inside };
}
