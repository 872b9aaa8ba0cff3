// The two document routes a signed link authorises instead of an API key: the PUT of a direct
// upload's bytes, and the download of a document's file. Both take the bytes as they are.
import type { FastifyError, FastifyInstance } from 'fastify';
import { verifyToken, type TokenPurpose, type VerifiedToken } from '../../domain/documents/signed-token.ts';
import { ApiError } from '../../jsonapi/errors.ts';
import type { SignedLinkOperation } from '../openapi-schemas.ts';
import { linkSecret, openDownload, receiveDirectUpload, tooLarge } from '../../services/documents.ts';
import { documentSettingsOf, type Services } from '../route.ts';

export const DIRECT_UPLOAD_PATH = '/v2/direct_uploads';
export const DOWNLOAD_PATH = '/v2/document_files';
/** Where the reference takes POST direct_uploads: Rails' ActiveStorage path, at the root where Rails mounts it. An alias of DIRECT_UPLOAD_PATH. */
export const RAILS_DIRECT_UPLOAD_PATH = '/rails/active_storage/direct_uploads';

/** The two routes for OpenAPI: no API key (the link's token is the key), raw bytes in or out. */
export const documentFileOperations: SignedLinkOperation[] = [
  {
    method: 'PUT',
    path: `${DIRECT_UPLOAD_PATH}/{token}`,
    summary: "Send a direct upload's bytes to the direct_upload.url POST /v2/direct_uploads answered, with its direct_upload.headers",
    tag: 'Documents',
    requestBody: 'The file, exactly byte_size bytes whose base64 MD5 is the checksum the blob was declared with',
    success: { status: 204, description: 'Stored; attach the blob with POST /v2/documents (attributes.attached_document: its signed_id)' },
    errors: {
      403: 'The upload URL is not valid or has expired (source.parameter: token)',
      404: 'The blob this URL was made for no longer exists',
      409: 'The bytes of this upload were sent already (already_uploaded)',
      413: 'The body is over SVC_DOCUMENT_MAX_BYTES',
      422: 'The bytes do not match the declared byte_size (byte_size_mismatch) or checksum (checksum_mismatch)',
    },
  },
  {
    method: 'GET',
    path: `${DOWNLOAD_PATH}/{token}`,
    summary: "A document's file, through the signed link GET /v2/documents/{id}/download_url answered (valid for SVC_DOCUMENT_LINK_TTL_S)",
    tag: 'Documents',
    success: { status: 200, description: 'The bytes, as an attachment with the file name; Content-Type is the type sniffed at upload', binary: true },
    errors: { 403: 'The download link is not valid or has expired (source.parameter: token)', 404: 'The document has been deleted' },
  },
];

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
