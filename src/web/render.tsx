// Pages are preact components rendered to HTML on the server; preact escapes every interpolated value.
import type { FastifyReply } from 'fastify';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/**
 * Sends a whole page. Pages show an account's own data, so no shared cache may keep them; the
 * security headers keep other sites from framing them or running script in them.
 */
export function sendPage(reply: FastifyReply, page: VNode, status = 200): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .headers(PAGE_HEADERS)
    .send(`<!doctype html>${renderToString(page)}`);
}

export const PAGE_HEADERS = {
  'cache-control': 'no-store',
  // Scripts and styles come from svc itself; MapLibre GL runs its workers from blob: URLs and
  // draws into canvases (blob:/data: images).
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; worker-src 'self' blob:; child-src blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
} as const;
