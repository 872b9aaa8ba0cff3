// The two document routes a signed link authorises instead of an API key: the PUT of a direct
// upload's bytes, and the download of a document's file. Both take the bytes as they are.
import type { FastifyError, FastifyInstance } from 'fastify';
import { verifyToken, type TokenPurpose, type VerifiedToken } from '../../domain/documents/signed-token.ts';
import { ApiError } from '../../jsonapi/errors.ts';
import { linkSecret, openDownload, receiveDirectUpload, tooLarge } from '../../services/documents.ts';
import { documentSettingsOf, type Services } from '../route.ts';

export const DIRECT_UPLOAD_PATH = '/v2/direct_uploads';
export const DOWNLOAD_PATH = '/v2/document_files';

/** 403 for a link that does not verify (or no longer does), naming the token as the parameter at fault. */
function refuseLink(result: VerifiedToken, what: string): string {
  if ('id' in result) return result.id;
  const expired = 'expired' in result;
  throw ApiError.of(403, {
    detail: expired ? `The ${what} has expired; ask for a new one.` : `The ${what} is not valid: it was not signed by this svc, or it was altered.`,
    code: expired ? 'expired_link' : 'invalid_link',
    source: { parameter: 'token' },
  });
}

async function verifiedId(services: Services, purpose: TokenPurpose, token: string, what: string): Promise<string> {
  const settings = documentSettingsOf(services);
  return refuseLink(verifyToken(await linkSecret(services.db, settings), purpose, token, services.clock.now()), what);
}

export function documentFileRoutes(app: FastifyInstance, services: Services): void {
  const settings = documentSettingsOf(services);
  void app.register(async (scope) => {
    // The bytes are the document: kept raw, whatever their type, up to the upload cap.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: settings.maxBytes }, (_req, body, done) => done(null, body));
    scope.setErrorHandler((err: FastifyError) => {
      // Thrown on to the app's handler, which writes every error body.
      throw err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? tooLarge(settings.maxBytes) : err;
    });
    scope.put<{ Params: { token: string } }>(`${DIRECT_UPLOAD_PATH}/:token`, async (req, reply) => {
      const id = await verifiedId(services, 'upload', req.params.token, 'upload URL');
      await receiveDirectUpload(services.db, services.clock, id, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
      return reply.code(204).send();
    });
    scope.get<{ Params: { token: string } }>(`${DOWNLOAD_PATH}/:token`, async (req, reply) => {
      const id = await verifiedId(services, 'download', req.params.token, 'download link');
      const { doc, bytes } = await openDownload(services.db, id);
      // The name as a filename* parameter (RFC 6266), so any character survives.
      return reply
        .type(doc.file_content_type)
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(doc.file_name)}`)
        .header('cache-control', 'private, no-store')
        // The browser takes the type svc sniffed, never its own guess (a text file is not a page).
        .header('x-content-type-options', 'nosniff')
        .send(bytes);
    });
  });
}
