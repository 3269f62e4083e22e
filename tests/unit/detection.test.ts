/**
 * Embedded-mode detection (src/shared/host/detection.ts): whether the app runs inside the companion app,
 * from what the browser tells a framed page about its parent.
 */
import { describe, expect, it } from 'vitest';
import { framingOf, isEmbedded, type Framing } from '../../src/shared/host/detection.ts';

const companion = 'https://companion.example.test';
const cmsPreview = 'https://cms.example.test';
const testRunner = 'http://localhost:51204';
const config = { cmsPreviewOrigins: [cmsPreview], testRunnerOrigins: [testRunner] };

/** A window as framingOf reads it: parent, location.ancestorOrigins (Chromium, Safari), document.referrer. */
function fakeWindow(options: { framed: boolean; ancestorOrigins?: string[]; referrer?: string }): Window {
  const win = {
    location: { origin: 'https://card.example.test', ancestorOrigins: options.ancestorOrigins },
    document: { referrer: options.referrer ?? '' },
  } as Record<string, unknown>;
  win.parent = options.framed ? { postMessage: () => {} } : win;
  return win as unknown as Window;
}

describe('framingOf', () => {
  it('a top-level window is not framed and has no parent origin, whatever the referrer says', () => {
    expect(framingOf(fakeWindow({ framed: false, referrer: `${companion}/benefits` }))).toEqual({ framed: false, parentOrigin: null });
  });

  it('takes the parent origin from location.ancestorOrigins[0] first', () => {
    const win = fakeWindow({ framed: true, ancestorOrigins: [companion, 'https://outer.example.test'], referrer: `${cmsPreview}/page` });
    expect(framingOf(win)).toEqual({ framed: true, parentOrigin: companion });
  });

  it('falls back to the origin of document.referrer (Firefox has no ancestorOrigins)', () => {
    const win = fakeWindow({ framed: true, referrer: `${companion}/benefits/card?tab=1#top` });
    expect(framingOf(win)).toEqual({ framed: true, parentOrigin: companion });
  });

  it('falls back to the referrer when ancestorOrigins is empty', () => {
    expect(framingOf(fakeWindow({ framed: true, ancestorOrigins: [], referrer: `${companion}/` }))).toEqual({
      framed: true,
      parentOrigin: companion,
    });
  });

  it("falls back to the referrer when the parent's origin is opaque ('null', a sandboxed parent)", () => {
    expect(framingOf(fakeWindow({ framed: true, ancestorOrigins: ['null'], referrer: `${companion}/` }))).toEqual({
      framed: true,
      parentOrigin: companion,
    });
  });

  it('a framed window with neither ancestorOrigins nor a referrer has an unknown parent origin', () => {
    expect(framingOf(fakeWindow({ framed: true }))).toEqual({ framed: true, parentOrigin: null });
  });

  it.each(['not a url', '://missing-scheme', 'http://'])('a malformed referrer %j gives an unknown parent origin, without throwing', (referrer) => {
    let framing: Framing | undefined;
    expect(() => (framing = framingOf(fakeWindow({ framed: true, referrer })))).not.toThrow();
    expect(framing).toEqual({ framed: true, parentOrigin: null });
  });

  it('reads the real jsdom window as not framed', () => {
    expect(framingOf(window)).toEqual({ framed: false, parentOrigin: null });
  });
});

describe('isEmbedded', () => {
  it('not framed: standalone', () => {
    expect(isEmbedded({ framed: false, parentOrigin: null }, config)).toBe(false);
  });

  it('framed by the companion app: embedded', () => {
    expect(isEmbedded({ framed: true, parentOrigin: companion }, config)).toBe(true);
  });

  it('framed by a CMS preview origin: not embedded', () => {
    expect(isEmbedded({ framed: true, parentOrigin: cmsPreview }, config)).toBe(false);
  });

  it('framed by a test runner origin: not embedded', () => {
    expect(isEmbedded({ framed: true, parentOrigin: testRunner }, config)).toBe(false);
  });

  it('framed with an unknown parent origin: embedded (the bridge then asks every allowlisted host)', () => {
    expect(isEmbedded({ framed: true, parentOrigin: null }, config)).toBe(true);
  });

  it('compares origins exactly: a lookalike of the CMS preview origin is not the CMS preview', () => {
    expect(isEmbedded({ framed: true, parentOrigin: `${cmsPreview}.evil.test` }, config)).toBe(true);
    expect(isEmbedded({ framed: true, parentOrigin: cmsPreview.replace('https', 'http') }, config)).toBe(true);
  });

  it('end to end: a frame whose referrer is the CMS preview is standalone; one framed by the companion app is embedded', () => {
    expect(isEmbedded(framingOf(fakeWindow({ framed: true, referrer: `${cmsPreview}/preview/42` })), config)).toBe(false);
    expect(isEmbedded(framingOf(fakeWindow({ framed: true, ancestorOrigins: [companion] })), config)).toBe(true);
  });
});
