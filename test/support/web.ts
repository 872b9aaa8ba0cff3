// The web app on a test server, and a browser-less client for it: a cookie jar, forms with their
// CSRF token, redirects followed by hand so tests can see each one.
import type { Page as BrowserPage } from 'playwright-core';
import { startTestApp, type TestApp, type TestAppOptions } from './app.ts';
import { mountWeb, pageNotFound } from '../../src/main/web.ts';
import type { LiveEventsHub } from '../../src/services/live-events.ts';
import type { WebOptions } from '../../src/web/context.ts';
import { createUser } from '../../src/services/users.ts';

export interface WebTestApp extends TestApp {
  /** A user of `accountId` (the first account unless given) with a password. */
  newUser(options?: { accountId?: string; email?: string; password?: string }): Promise<{ email: string; password: string; userId: string }>;
  client(): WebClient;
}

let users = 0;

export async function startWebTestApp(options: TestAppOptions & { appUrl?: string } = {}): Promise<WebTestApp> {
  const { appUrl, beforeListen, ...rest } = options;
  const app = await startTestApp({
    ...rest,
    pageNotFound,
    beforeListen: async (fastify, baseUrl, services) => {
      await beforeListen?.(fastify, baseUrl, services);
      await mountWeb(fastify, { ...services, appUrl });
    },
  });
  return withWebUsers(app);
}

/**
 * The web app for a test app another helper starts (startTrackingHarness's `beforeListen`);
 * `mounted.live` is its live events hub once the app is up, for tests to wait until it listens.
 */
export function webMount(appUrl?: string, options: Pick<WebOptions, 'vesselPositionsEveryMs'> = {}) {
  const mounted: { live?: LiveEventsHub } = {};
  const beforeListen: NonNullable<TestAppOptions['beforeListen']> = async (fastify, _baseUrl, services) => {
    mounted.live = (await mountWeb(fastify, { ...services, ...options, appUrl })).live;
  };
  return { beforeListen, mounted };
}

/** Users and browser-less clients for a test app that has the web app mounted. */
export function withWebUsers<T extends TestApp>(app: T): T & Pick<WebTestApp, 'newUser' | 'client'> {
  return Object.assign(app, {
    async newUser({ accountId = app.accountId, email = `user${++users}-${Date.now()}@example.com`, password = 'correct horse battery' } = {}) {
      const user = await createUser(app.db, app.clock, { accountId, email, password });
      return { email, password, userId: user.id };
    },
    client: () => new WebClient(app.baseUrl),
  });
}

export interface Page {
  status: number;
  headers: Headers;
  text: string;
  /** Where a redirect points (as given). */
  location: string | null;
}

export class WebClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, init: { form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Page> {
    const headers: Record<string, string> = { accept: 'text/html', ...init.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (init.form) {
      body = new URLSearchParams(init.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      const expired = attributes.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]) < Date.now()) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get('location') };
  }

  get(path: string): Promise<Page> {
    return this.request('GET', path);
  }

  /** Reads the form's CSRF token from `formPage` (a path to GET first) and posts `fields` with it. */
  async submit(formPage: string, action: string, fields: Record<string, string>): Promise<Page> {
    const page = await this.get(formPage);
    return this.request('POST', action, { form: { _csrf: csrfTokenIn(page.text), ...fields } });
  }

  async signIn(email: string, password: string, next?: string): Promise<Page> {
    const page = await this.submit('/sign-in', '/sign-in', { email, password, ...(next ? { next } : {}) });
    if (page.status !== 303) throw new Error(`sign-in failed: ${page.status} ${page.text.slice(0, 300)}`);
    return page;
  }
}

export function csrfTokenIn(html: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`no CSRF token on the page: ${html.slice(0, 300)}`);
  return token;
}

/** Signs in through the sign-in form in a browser and waits for where it leads (`next`, else /shipments). */
export async function signInWithForm(page: BrowserPage, baseUrl: string, user: { email: string; password: string }, next?: string): Promise<void> {
  await page.goto(`${baseUrl}/sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  await page.getByLabel('E-mail address').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${baseUrl}${next ?? '/shipments'}`);
}
