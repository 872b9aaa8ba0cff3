// The signed-in user's password: set after a one-time link, changed with the current one otherwise.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Invalid } from '../../domain/errors.ts';
import { changePassword, MIN_PASSWORD_LENGTH, verifyCredentials } from '../../services/users.ts';
import { startSession } from '../../services/web-sessions.ts';
import type { WebOptions } from '../context.ts';
import { formField } from '../csrf.ts';
import { Alert, CsrfField, Layout } from '../layout.tsx';
import { sendPage } from '../render.tsx';
import { setSessionCookie } from '../session.ts';

function PasswordPage({ req, message, done }: { req: FastifyRequest; message?: string; done?: boolean }) {
  const session = req.webSession!;
  return (
    <Layout req={req} title="Your account" section="account">
      <section class="narrow">
        <h1>Your account</h1>
        <p>
          Signed in as <strong>{session.email}</strong>, account <strong>{session.account_name}</strong>.
        </p>
        <Alert message={message} />
        <Alert message={done ? 'Your password is saved. Other sessions of yours were signed out.' : undefined} kind="info" />
        <h2>{session.via_link ? 'Choose a password' : 'Change your password'}</h2>
        <form method="post" action="/settings/password" class="stack">
          <CsrfField req={req} />
          <input type="text" name="username" autocomplete="username" value={session.email} hidden />
          {!session.via_link && (
            <label>
              Current password
              <input type="password" name="current" autocomplete="current-password" required />
            </label>
          )}
          <label>
            New password <span class="muted">(at least {MIN_PASSWORD_LENGTH} characters)</span>
            <input type="password" name="password" autocomplete="new-password" minLength={MIN_PASSWORD_LENGTH} required />
          </label>
          <label>
            New password again
            <input type="password" name="confirm" autocomplete="new-password" minLength={MIN_PASSWORD_LENGTH} required />
          </label>
          <button type="submit">Save password</button>
        </form>
      </section>
    </Layout>
  );
}

export function passwordRoutes(web: FastifyInstance, options: WebOptions): void {
  const { db, clock } = options;
  web.get('/settings/password', async (req, reply) => sendPage(reply, <PasswordPage req={req} done={(req.query as Record<string, string>).saved === '1'} />));

  web.post('/settings/password', async (req, reply) => {
    const session = req.webSession!;
    const password = formField(req, 'password') ?? '';
    const refuse = (message: string) => sendPage(reply, <PasswordPage req={req} message={message} />, 422);
    if (password !== formField(req, 'confirm')) return refuse('The two new passwords differ.');
    if (!session.via_link && !(await verifyCredentials(db, session.email, formField(req, 'current') ?? ''))) return refuse('The current password is not right.');
    try {
      await changePassword(db, clock, session.user_id, password);
    } catch (err) {
      if (err instanceof Invalid) return refuse(err.detail);
      throw err;
    }
    // The change ended every session of the user, this one too: the browser that made it goes on.
    const fresh = await startSession(db, clock, session.user_id);
    setSessionCookie(reply, options, fresh.token, fresh.expiresAt);
    return reply.redirect('/settings/password?saved=1', 303);
  });
}
