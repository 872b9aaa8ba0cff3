// Real headless Chromium for the web app's tests: Debian's package, driven by playwright-core
// (Playwright's own browser download is not reachable from here). A watched page records what
// a test asserts there is none of: console errors, uncaught exceptions, failed requests and
// requests leaving the machine (the app must work with no internet).
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.SVC_CHROMIUM ?? '/usr/bin/chromium';

/** Where screenshots go (gitignored); CI keeps the folder as its artifacts. */
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../test-artifacts/screenshots');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // WebGL (MapLibre GL) on the CPU. Debian's Chromium 156 already gives headless pages WebGL 2 on
  // ANGLE + SwiftShader with the flags above (measured); these two keep it so on builds that drop
  // the automatic fallback to SwiftShader, which Chromium is phasing out.
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

/**
 * Undefined when the browser tests can run; else why not, for `test(name, { skip }, …)`. On CI a
 * missing Chromium is an error (.ci/run installs it), so the suite cannot go green without them.
 */
export function browserSkipReason(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const missing = `Chromium not found at ${CHROMIUM} (install it: apt-get install chromium, or set SVC_CHROMIUM)`;
  if (process.env.CI) throw new Error(`${missing}: CI must run the browser tests`);
  return `${missing}: browser tests skipped`;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors, page errors, failed or refused requests and off-machine requests, in order. */
  problems: string[];
  /** Saves a full-page PNG named after the test (and `label`); returns its path. */
  screenshot(label?: string): Promise<string>;
  close(): Promise<void>;
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80);
const isLocal = (url: string) => /^(data|blob|about):/.test(url) || ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);

/** A fresh context and page; `testName` names its screenshots. */
export async function openPage(browser: Browser, testName: string, viewport = { width: 1200, height: 800 }): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport });
  const problems: string[] = [];
  // Anything bound for another machine is refused and reported rather than left to time out.
  await context.route(
    (url) => !isLocal(url.href),
    (route) => {
      problems.push(`request off the machine: ${route.request().url()}`);
      return route.abort('blockedbyclient');
    },
  );
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // Which page (by navigation count) each request was made for: leaving a page aborts what it
  // still had under way, a script still loading on a loaded machine among them, and that is no fault.
  let navigations = 0;
  const madeOn = new WeakMap<object, number>();
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations++;
  });
  page.on('request', (r) => {
    // Counted from the moment the page is being left, too: what the old page had under way (a
    // live page's refetch) may be aborted before the new page is committed.
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) navigations++;
    madeOn.set(r, navigations);
  });
  page.on('requestfailed', (r) => {
    const aborted = r.failure()?.errorText === 'net::ERR_ABORTED';
    // A live page's event stream (live.js, GET /live) never ends by itself: leaving the page aborts it.
    if (aborted && (r.resourceType() === 'eventsource' || madeOn.get(r) !== navigations)) return;
    problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  return {
    page,
    context,
    problems,
    async screenshot(label?: string) {
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const file = path.join(SCREENSHOT_DIR, `${slug(testName)}${label ? `--${slug(label)}` : ''}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    close: () => context.close(),
  };
}
