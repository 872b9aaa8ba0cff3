// Signing in and out: e-mail and password, or a one-time link (first start, new users, resets).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SignInThrottle } from '../../services/sign-in-throttle.ts';
import { SIGN_IN_LINK_PATH, signInLinkOwner, verifyCredentials } from '../../services/users.ts';
import { endSession, startSession } from '../../services/web-sessions.ts';
import type { WebOptions } from '../context.ts';
import { formField } from '../csrf.ts';
import { Alert, CsrfField, Layout } from '../layout.tsx';
import { sendPage } from '../render.tsx';
import { clearSessionCookie, safeNext, SESSION_COOKIE, setSessionCookie } from '../session.ts';

function SignInPage({ req, next, email, message }: { req: FastifyRequest; next: string; email?: string; message?: string }) {
  return (
    <Layout req={req} title="Sign in">
      <section class="narrow">
        <h1>Sign in to svc</h1>
        <Alert message={message} />
        <form method="post" action="/sign-in" class="stack">
          <CsrfField req={req} />
          <input type="hidden" name="next" value={next} />
          <label>
            E-mail address
            <input type="email" name="email" autocomplete="username" required autofocus value={email} />
          </label>
          <label>
            Password
            <input type="password" name="password" autocomplete="current-password" required />
          </label>
          <button type="submit">Sign in</button>
        </form>
        <p class="muted">Forgot your password? Your administrator can send you a new sign-in link: <code>svc users reset-password &lt;e-mail&gt;</code>.</p>
      </section>
    </Layout>
  );
}

function LinkPage({ req, token, email }: { req: FastifyRequest; token: string; email?: string }) {
  return (
    <Layout req={req} title="Sign in">
      <section class="narrow">
        {email ? (
          <>
            <h1>Sign in as {email}</h1>
            {/* A button, not the GET itself: mail scanners that open links must not use them up. */}
            <form method="post" action={`${SIGN_IN_LINK_PATH}/${token}`} class="stack">
              <CsrfField req={req} />
              <button type="submit">Continue</button>
            </form>
          </>
        ) : (
          <>
            <h1>This sign-in link cannot be used</h1>
            <p>It was used already, or it has expired. Ask for a new one: <code>svc users reset-password &lt;e-mail&gt;</code>.</p>
            <p>
              <a href="/sign-in">Sign in with your password</a>
            </p>
          </>
        )}
      </section>
    </Layout>
  );
}

export function signInRoutes(web: FastifyInstance, options: WebOptions): void {
  const { db, clock } = options;
  const open = { public: true };
  const throttle = new SignInThrottle(clock);

  web.get('/sign-in', { config: open }, async (req, reply) => {
    const next = safeNext((req.query as Record<string, unknown>).next);
    if (req.webSession) return reply.redirect(next, 303);
    return sendPage(reply, <SignInPage req={req} next={next} />);
  });

  web.post('/sign-in', { config: open }, async (req, reply) => {
    const email = formField(req, 'email') ?? '';
    const next = safeNext(formField(req, 'next'));
    throttle.check(req.ip, email);
    const user = await verifyCredentials(db, email, formField(req, 'password') ?? '');
    if (!user) {
      throttle.failed(req.ip, email);
      return sendPage(reply, <SignInPage req={req} next={next} email={email} message="That e-mail address and password do not match." />, 422);
    }
    throttle.succeeded(req.ip, email);
    const session = await startSession(db, clock, user.id);
    setSessionCookie(reply, options, session.token, session.expiresAt);
    return reply.redirect(next, 303);
  });

  web.get(`${SIGN_IN_LINK_PATH}/:token`, { config: open }, async (req, reply) => {
    const { token } = req.params as { token: string };
    const user = await signInLinkOwner(db, clock, token, false);
    return sendPage(reply, <LinkPage req={req} token={token} email={user?.email} />, user ? 200 : 410);
  });

  web.post(`${SIGN_IN_LINK_PATH}/:token`, { config: open }, async (req, reply) => {
    const { token } = req.params as { token: string };
    // Links are 240-bit random: the limit only keeps a guesser from hammering the database.
    throttle.check(req.ip, '');
    const user = await signInLinkOwner(db, clock, token, true);
    if (!user) {
      throttle.failed(req.ip, '');
      return sendPage(reply, <LinkPage req={req} token={token} />, 410);
    }
    const session = await startSession(db, clock, user.id, true);
    setSessionCookie(reply, options, session.token, session.expiresAt);
    return reply.redirect(user.has_password ? '/shipments' : '/settings/password', 303);
  });

  web.post('/sign-out', { config: open }, async (req, reply) => {
    const token = req.cookies[SESSION_COOKIE];
    if (token) await endSession(db, token);
    clearSessionCookie(reply, options);
    return reply.redirect('/sign-in', 303);
  });
}
