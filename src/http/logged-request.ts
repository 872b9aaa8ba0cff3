// What a request log line says of the request. Some paths carry a secret: a signed download or
// upload link and a one-time sign-in link let whoever holds them fetch the document, send its
// file or sign in until they expire, so a log that kept them would hand them to everyone who
// reads the log. Their token is left out; everything else is as fastify logs it by default.
import type { FastifyRequest } from 'fastify';
import { SIGN_IN_LINK_PATH } from '../services/users.ts';
import { DIRECT_UPLOAD_PATH, DOWNLOAD_PATH } from './routes/document-files.ts';

const escaped = (path: string) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Matched as loosely as a client may write them (repeated slashes, any case): a mistyped path
// that reaches no route still carries the token.
const TOKEN_PATHS = new RegExp(`^(/+(?:${[DOWNLOAD_PATH, DIRECT_UPLOAD_PATH, SIGN_IN_LINK_PATH].map((p) => escaped(p.slice(1))).join('|')})/+)[^?#]*`, 'i');

/** The URL as logged: a token in one of the paths above replaced by `[redacted]`. */
export const loggedUrl = (url: string): string => url.replace(TOKEN_PATHS, '$1[redacted]');

/** fastify's `req` log serializer with the URL as loggedUrl gives it. */
export const loggedRequest = (req: FastifyRequest) => ({
  method: req.method,
  url: loggedUrl(req.url),
  version: req.headers?.['accept-version'] as string | undefined,
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
});
