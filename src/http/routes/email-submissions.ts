// E-mail submissions: messages mailed to an account's inbound address (the SMTP listener,
// src/main/smtp.ts) or posted here raw, each with the documents it became.
import { z } from 'zod';
import { ApiError } from '../../jsonapi/errors.ts';
import { emailSubmissionResources } from '../../read-model/email-submissions.ts';
import { acceptEmail, inboundAddress, submissionNotFound } from '../../services/email-submissions.ts';
import { findEmailSubmissions, listEmailSubmissions } from '../../store/email-submissions.ts';
import { recordDocument, resourceSchema, toManySchema, toOneSchema } from '../openapi-schemas.ts';
import { listRoute, showRoute } from '../read-routes.ts';
import { documentSettingsOf, type AnyRouteSpec, type Services } from '../route.ts';
import { createdReply } from '../write-routes.ts';

const TAG = 'Email Submissions';
const INCLUDES = ['account', 'user', 'documents', 'documents.last_document_representation'];
export const RAW_MESSAGE = 'message/rfc822';

const emailSubmissionSchema = resourceSchema(
  'email_submission',
  z.object({
    subject: z.string(),
    body: z.string().nullable(),
    from: z.array(z.string()),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    sent_at: z.iso.datetime().nullable(),
    message_id: z.string().nullable(),
    in_reply_to: z.string().nullable(),
    references: z.array(z.string()),
    content_type: z.string().nullable(),
    documents_count: z.int().describe('Documents made from this message, not discarded'),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  }),
  { relationships: { account: toOneSchema('account'), user: toOneSchema('user'), documents: toManySchema('document', 'Its attachments and its text, as documents') }, selfLink: true },
);

export const emailSubmissionRoutes: AnyRouteSpec[] = [
  listRoute({
    url: '/v2/email_submissions',
    summary: 'List email submissions',
    tag: TAG,
    type: 'email_submission',
    schema: emailSubmissionSchema,
    description: 'A page of email submissions, newest first',
    includes: INCLUDES,
    pageSize: 25,
    list: (ctx, limit, offset) => listEmailSubmissions(ctx.services.db, ctx.accountId, limit, offset),
    serialize: (rows, ctx) => emailSubmissionResources(ctx.services.db, rows),
  }),
  showRoute({
    url: '/v2/email_submissions/:id',
    summary: 'Get an email submission',
    tag: TAG,
    type: 'email_submission',
    schema: emailSubmissionSchema,
    includes: INCLUDES,
    async find({ services, accountId, params }) {
      const [found] = await emailSubmissionResources(services.db, await findEmailSubmissions(services.db, accountId, [params.id]));
      if (!found) throw submissionNotFound();
      return found;
    },
    serialize: (resource) => resource,
  }),
  {
    method: 'GET',
    url: '/v2/email_submissions/inbound_address',
    summary: "The account's inbound address: mail sent to it over SMTP (SVC_SMTP_PORT) becomes an email submission",
    tag: TAG,
    plainJson: true,
    response: { status: 200, description: 'The address', schema: z.object({ inbound_address: z.string() }) },
    async handler({ services, accountId }) {
      return { body: { inbound_address: await inboundAddress(services.db, documentSettingsOf(services), accountId) } };
    },
  },
  {
    method: 'POST',
    url: '/v2/email_submissions',
    summary: `Submit an e-mail: the raw RFC 822 message as the body, Content-Type ${RAW_MESSAGE}. Its attachments, and its subject and body as one text document, become documents (source email)`,
    tag: TAG,
    rawBody: {
      mediaType: RAW_MESSAGE,
      description: 'The message as received: header fields, a blank line, the body (MIME parts and all)',
      maxBytes: (services) => documentSettingsOf(services).maxBytes,
    },
    response: {
      status: 201,
      description: 'The submission; its documents are created and their extraction queued. The same message (the same bytes) submitted again answers with the submission made the first time, and nothing new is stored',
       schema: recordDocument(emailSubmissionSchema),
    },
    errors: { 413: 'The message is over SVC_DOCUMENT_MAX_BYTES', 415: `The body is not sent as ${RAW_MESSAGE}` },
    async handler({ services, accountId, req, url }) {
      if (!Buffer.isBuffer(req.body)) {
        throw ApiError.of(415, { title: 'Unsupported Media Type', detail: `Send the raw message as the body with Content-Type: ${RAW_MESSAGE}.`, code: 'unsupported_media_type' });
      }
      const { submission } = await acceptEmail(services.db, services.clock, documentSettingsOf(services), accountId, req.body, 'api');
      const [data] = await emailSubmissionResources(services.db, [submission]);
      return createdReply(data, url);
    },
  },
];
