// API keys of the signed-in account: listed masked, created (the key is shown once, on the answer
// to the form, and kept nowhere), revoked after a confirmation.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createApiKey, findAccountApiKey, listAccountApiKeys, maskApiKey, MAX_API_KEY_NAME_LENGTH, revokeAccountApiKey, type ApiKeyRow } from '../../services/api-keys.ts';
import type { WebOptions } from '../context.ts';
import { formField } from '../csrf.ts';
import { Alert, CsrfField } from '../layout.tsx';
import { sendPage } from '../render.tsx';
import { FieldError, invalidProps, problemsOf, ProblemSummary, queryParam, SettingsLayout, Time, type FormProblems } from './settings-shared.tsx';

interface KeysPageProps {
  req: FastifyRequest;
  keys: ApiKeyRow[];
  apiUrl: string;
  /** The key just created: its only appearance. */
  created?: { key: string; row: ApiKeyRow };
  revoked?: ApiKeyRow;
  name?: string;
  problems?: FormProblems;
}

function KeysPage({ req, keys, apiUrl, created, revoked, name, problems }: KeysPageProps) {
  const active = keys.filter((k) => !k.revoked_at);
  return (
    <SettingsLayout req={req} title="API keys" page="api-keys">
      <h1>API keys</h1>
      <p class="muted">
        Programs use a key to call svc's REST API at <code>{apiUrl}</code> with the header <code>Authorization: Token &lt;key&gt;</code>. A key acts for the
        whole account; revoke one as soon as it is not needed any more or may have leaked.
      </p>
      {created && <NewKey created={created} apiUrl={apiUrl} />}
      <Alert message={revoked ? `The key ${maskApiKey(revoked)}${revoked.name ? ` (${revoked.name})` : ''} is revoked: requests with it are refused from now on.` : undefined} kind="info" />

      <h2>Keys of this account</h2>
      {keys.length === 0 ? (
        <p>This account has no API keys yet.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">
              {`${active.length} active of ${keys.length} keys`}
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr class={k.revoked_at ? 'revoked' : undefined}>
                  <th scope="row">{k.name || <span class="muted">(no name)</span>}</th>
                  <td>
                    <code>{maskApiKey(k)}</code>
                  </td>
                  <td>
                    <Time at={k.created_at} />
                  </td>
                  <td>
                    {k.revoked_at ? (
                      <>
                        <span class="badge bad">revoked</span> <Time at={k.revoked_at} />
                      </>
                    ) : (
                      <span class="badge ok">active</span>
                    )}
                  </td>
                  <td>
                    {!k.revoked_at && (
                      <a href={`/settings/api-keys/${k.id}/revoke`} aria-label={`Revoke ${k.name || maskApiKey(k)}`}>
                        Revoke…
                      </a>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2 id="new-key-heading">Create a key</h2>
      <ProblemSummary problems={problems} />
      <form method="post" action="/settings/api-keys" class="inline" aria-labelledby="new-key-heading">
        <CsrfField req={req} />
        <label>
          Name <span class="muted">(what uses it, e.g. "ERP import")</span>
          <input type="text" name="name" required maxLength={MAX_API_KEY_NAME_LENGTH} value={name} {...invalidProps(problems, 'name')} />
          <FieldError problems={problems} field="name" />
        </label>
        <button type="submit">Create key</button>
      </form>
    </SettingsLayout>
  );
}

function NewKey({ created, apiUrl }: { created: { key: string; row: ApiKeyRow }; apiUrl: string }) {
  return (
    <section class="card secret-once" aria-labelledby="created-key-heading">
      <h2 id="created-key-heading">Your new key{created.row.name ? `: ${created.row.name}` : ''}</h2>
      <p role="status">
        <strong>Copy it now: svc shows it only this once.</strong> It keeps only a digest of the key, so nobody can show it to you again; if you lose it,
        create another and revoke this one.
      </p>
      <div class="copy-row">
        <label class="grow">
          API key
          <input id="created-key" class="secret" type="text" readonly value={created.key} autocomplete="off" spellcheck={false} />
        </label>
        <button type="button" class="secondary" data-copy="created-key" hidden>
          Copy
        </button>
      </div>
      <p class="muted">
        Try it: <code>{`curl -H "Authorization: Token ${created.key}" ${apiUrl}/account`}</code>
      </p>
    </section>
  );
}

// Not `key`: preact keeps that prop for itself.
function RevokePage({ req, apiKey: key }: { req: FastifyRequest; apiKey: ApiKeyRow }) {
  return (
    <SettingsLayout req={req} title="Revoke an API key" page="api-keys">
      <section class="narrow">
        <h1>Revoke this key?</h1>
        <p>
          <strong>{key.name || '(no name)'}</strong> <code>{maskApiKey(key)}</code>, created <Time at={key.created_at} />.
        </p>
        {key.revoked_at ? (
          <p>
            It was revoked already, <Time at={key.revoked_at} />.
          </p>
        ) : (
          <>
            <p>Every request with it will be refused from the moment you confirm. This cannot be undone.</p>
            <form method="post" action={`/settings/api-keys/${key.id}/revoke`} class="inline">
              <CsrfField req={req} />
              <button type="submit" class="danger">
                Revoke the key
              </button>
              <a href="/settings/api-keys">Cancel</a>
            </form>
          </>
        )}
      </section>
    </SettingsLayout>
  );
}

export function settingsApiKeysRoutes(web: FastifyInstance, options: WebOptions): void {
  const { db, clock } = options;
  const apiUrlOf = (req: FastifyRequest) => `${options.appUrl ?? `${req.protocol}://${req.host}`}/v2`;
  const keysOf = (req: FastifyRequest) => listAccountApiKeys(db, req.webSession!.account_id);

  web.get('/settings/api-keys', async (req, reply) => {
    const keys = await keysOf(req);
    const revokedId = queryParam(req, 'revoked');
    const revoked = revokedId ? keys.find((k) => k.id === revokedId && k.revoked_at) : undefined;
    return sendPage(reply, <KeysPage req={req} keys={keys} apiUrl={apiUrlOf(req)} revoked={revoked} />);
  });

  // The key goes out in this answer and nowhere else: not in a redirect, not in the session.
  web.post('/settings/api-keys', async (req, reply) => {
    const name = formField(req, 'name') ?? '';
    try {
      const created = await createApiKey(db, req.webSession!.account_id, name);
      return sendPage(reply, <KeysPage req={req} keys={await keysOf(req)} apiUrl={apiUrlOf(req)} created={created} />, 201);
    } catch (err) {
      const problems = problemsOf(err, (pointer) => (pointer === '/name' ? 'name' : undefined));
      return sendPage(reply, <KeysPage req={req} keys={await keysOf(req)} apiUrl={apiUrlOf(req)} name={name} problems={problems} />, 422);
    }
  });

  web.get('/settings/api-keys/:id/revoke', async (req, reply) => {
    const key = await findAccountApiKey(db, req.webSession!.account_id, (req.params as { id: string }).id);
    return sendPage(reply, <RevokePage req={req} apiKey={key} />);
  });

  web.post('/settings/api-keys/:id/revoke', async (req, reply) => {
    const key = await revokeAccountApiKey(db, req.webSession!.account_id, (req.params as { id: string }).id, clock.now());
    return reply.redirect(`/settings/api-keys?revoked=${encodeURIComponent(key.id)}`, 303);
  });
}
