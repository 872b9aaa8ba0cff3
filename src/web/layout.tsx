// The frame of every page: navigation for a signed-in user, the page's own content, one stylesheet.
import type { ComponentChildren } from 'preact';
import type { FastifyRequest } from 'fastify';

export interface LayoutProps {
  req: FastifyRequest;
  title: string;
  /** Which navigation entry is current. */
  section?: 'shipments' | 'track' | 'tracking-requests' | 'developers' | 'account';
  /** Extra page scripts (ES modules under /assets/). */
  scripts?: string[];
  /** Extra stylesheets under /assets/ (the map's). */
  styles?: string[];
  children: ComponentChildren;
}

const NAV: { href: string; label: string; section: LayoutProps['section'] }[] = [
  { href: '/shipments', label: 'Shipments', section: 'shipments' },
  { href: '/track', label: 'Track', section: 'track' },
  { href: '/tracking-requests', label: 'Tracking requests', section: 'tracking-requests' },
  { href: '/settings/api-keys', label: 'Developers', section: 'developers' },
];

export function Layout({ req, title, section, scripts = [], styles = [], children }: LayoutProps) {
  const session = req.webSession;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · svc`}</title>
        <link rel="stylesheet" href="/assets/app.css" />
        {styles.map((href) => (
          <link rel="stylesheet" href={href} />
        ))}
        {scripts.map((src) => (
          <script type="module" src={src} />
        ))}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <a class="brand" href="/">
            svc
          </a>
          {session && (
            <nav aria-label="Main">
              <ul>
                {NAV.map((item) => (
                  <li>
                    <a href={item.href} aria-current={item.section === section ? 'page' : undefined}>
                      {item.label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          {session && (
            <div class="who">
              <a href="/settings/password" title={session.email} aria-current={section === 'account' ? 'page' : undefined}>
                {session.account_name}
              </a>
              <form method="post" action="/sign-out">
                <CsrfField req={req} />
                <button type="submit" class="link">
                  Sign out
                </button>
              </form>
            </div>
          )}
        </header>
        <main id="main">{children}</main>
      </body>
    </html>
  );
}

/** The hidden field every form posts; src/web/csrf.ts checks it. */
export function CsrfField({ req }: { req: FastifyRequest }) {
  return <input type="hidden" name="_csrf" value={req.csrfToken} />;
}

/** A notice above a form: what went wrong, announced to screen readers. */
export function Alert({ message, kind = 'error' }: { message?: string; kind?: 'error' | 'info' }) {
  if (!message) return null;
  return (
    <p class={`alert ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {message}
    </p>
  );
}
