// What the developer settings pages (API keys, webhooks, notifications) share: their frame with a
// sub-navigation, and the way a refused form shows svc's own words next to the field at fault.
import type { FastifyRequest } from 'fastify';
import type { ComponentChildren } from 'preact';
import { NotFoundError, ValidationError } from '../../../sdk/src/errors.ts';
import { Invalid, NotFound } from '../../domain/errors.ts';
import { assetUrl } from '../assets.ts';
import { formatDateTime } from '../format.ts';
import { Layout } from '../layout.tsx';

const SUB_NAV = [
  { href: '/settings/api-keys', label: 'API keys', page: 'api-keys' },
  { href: '/settings/webhooks', label: 'Webhooks', page: 'webhooks' },
  { href: '/settings/notifications', label: 'Notifications', page: 'notifications' },
] as const;

export type SettingsPage = (typeof SUB_NAV)[number]['page'];

export function SettingsLayout({ req, title, page, children }: { req: FastifyRequest; title: string; page: SettingsPage; children: ComponentChildren }) {
  return (
    <Layout req={req} title={title} section="developers" styles={[assetUrl('settings.css')]} scripts={[assetUrl('settings.js')]}>
      <nav class="settings-nav" aria-label="Developer settings">
        <ul>
          {SUB_NAV.map((item) => (
            <li>
              <a href={item.href} aria-current={item.page === page ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div class="settings">{children}</div>
    </Layout>
  );
}

/** Messages of a refused form: by the form field they are about, and the rest. */
export interface FormProblems {
  fields: Record<string, string[]>;
  general: string[];
}

export const noProblems = (): FormProblems => ({ fields: {}, general: [] });

export function addProblem(problems: FormProblems, field: string | undefined, message: string): FormProblems {
  if (field) (problems.fields[field] ??= []).push(message);
  else problems.general.push(message);
  return problems;
}

/**
 * The problems a refusal names, each placed at the form field `fieldOf` maps its JSON:API
 * `source.pointer` (or query parameter) to; unknown to the form, it is shown above it. Anything
 * but a refusal of the input is not the form's business and is thrown on.
 */
export function problemsOf(err: unknown, fieldOf: (pointer: string) => string | undefined): FormProblems {
  if (err instanceof Invalid) return addProblem(noProblems(), fieldOf(`/${err.field.join('/')}`), err.detail);
  if (!(err instanceof ValidationError)) throw err;
  const problems = noProblems();
  for (const e of err.errors) {
    const where = e.source?.pointer ?? e.source?.parameter;
    addProblem(problems, where ? fieldOf(where) : undefined, e.detail || e.title || 'This value is not accepted.');
  }
  if (err.errors.length === 0) problems.general.push(err.message);
  return problems;
}

/** The messages about one field, tied to its input by `id` (`aria-describedby={errorId(field)}`). */
export function FieldError({ problems, field }: { problems?: FormProblems; field: string }) {
  const messages = problems?.fields[field];
  if (!messages?.length) return null;
  return (
    <span class="field-error" id={errorId(field)}>
      {messages.join(' ')}
    </span>
  );
}

export const errorId = (field: string) => `${field.replace(/[^a-zA-Z0-9_-]/g, '-')}-error`;

/** What an input carries when its field was refused: screen readers announce the message with it. */
export function invalidProps(problems: FormProblems | undefined, field: string) {
  return problems?.fields[field]?.length ? { 'aria-invalid': 'true' as const, 'aria-describedby': errorId(field) } : {};
}

/** The problems no field of the form names. */
export function GeneralProblems({ problems }: { problems?: FormProblems }) {
  if (!problems?.general.length) return null;
  return (
    <div class="alert error" role="alert">
      {problems.general.map((m) => (
        <p>{m}</p>
      ))}
    </div>
  );
}

/** A summary on top of a refused form, so a screen reader hears at once that something is wrong. */
export function ProblemSummary({ problems }: { problems?: FormProblems }) {
  if (!problems) return null;
  const count = Object.values(problems.fields).reduce((n, m) => n + m.length, 0);
  return (
    <>
      {count > 0 && (
        <p class="alert error" role="alert">
          {count === 1 ? 'One value was not accepted: see the message next to it.' : `${count} values were not accepted: see the messages next to them.`}
        </p>
      )}
      <GeneralProblems problems={problems} />
    </>
  );
}

/** Every value of a repeated form field (checkboxes), in the order sent. */
export function formValues(req: FastifyRequest, name: string): string[] {
  const value = (req.body as Record<string, string | string[] | undefined> | undefined)?.[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** The API's 404 for another account's (or no) record, as the web app's own. */
export async function orNotFound<T>(promise: Promise<T>, detail = 'There is no such record in your account.'): Promise<T> {
  try {
    return await promise;
  } catch (err) {
    if (err instanceof NotFoundError) throw new NotFound(detail);
    throw err;
  }
}

/** A query parameter as one string ('' when absent or repeated oddly). */
export function queryParam(req: FastifyRequest, name: string): string {
  const value = (req.query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}

/** `?page=` as a page number from 1; anything else is the first page. */
export function pageNumber(req: FastifyRequest): number {
  const n = Number(queryParam(req, 'page'));
  return Number.isInteger(n) && n >= 1 && n <= 1_000_000 ? n : 1;
}

/** An instant, written in UTC with the machine-readable time beside it. */
export function Time({ at }: { at: Date | string | null | undefined }) {
  if (!at) return <span class="muted">—</span>;
  const iso = typeof at === 'string' ? at : at.toISOString();
  return <time datetime={iso}>{formatDateTime(at)}</time>;
}

/** Newer/older links of a list; `hrefOf(n)` is page n's address. */
export function Pager({ page, hasNext, hrefOf, label }: { page: number; hasNext: boolean; hrefOf: (page: number) => string; label: string }) {
  if (page === 1 && !hasNext) return null;
  return (
    <nav class="pager" aria-label={label}>
      {page > 1 ? <a href={hrefOf(page - 1)} rel="prev">← Newer</a> : <span />}
      <span class="muted">Page {page}</span>
      {hasNext ? <a href={hrefOf(page + 1)} rel="next">Older →</a> : <span />}
    </nav>
  );
}
