// Documents (beta document processing): upload, read, edit, discard, download links and the
// jobs that process a document again; the document types and their schemas. Uploads come as the
// reference's direct upload (POST /v2/direct_uploads, PUT the bytes, then POST /v2/documents
// with the blob's signed id) or as one multipart/form-data POST /v2/documents.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Conflict, NotFound } from '../../domain/errors.ts';
import { documentFileName } from '../../domain/documents/file-name.ts';
import { DOCUMENT_TYPE_CODES, DOCUMENT_TYPES, findDocumentSchema } from '../../domain/documents/types.ts';
import { validateBody } from '../../jsonapi/body.ts';
import { ApiError, badParameter } from '../../jsonapi/errors.ts';
import { listParam, oneOf, optionalParam } from '../../jsonapi/query.ts';
import { documentResource, documentSchemaResource } from '../../jsonapi/serializers/document.ts';
import {
  attachDocument,
  createDirectUpload,
  createDocument,
  downloadToken,
  queueJob,
  rotateDocument,
  ROTATIONS,
  tooLarge,
} from '../../services/documents.ts';
import { discardDocument, DOCUMENT_SORTS, findDocument, listDocuments, updateDocument, type DocumentRow, type DocumentSort } from '../../store/documents.ts';
import { recordDocument, resourceSchema, toManySchema, toOneSchema } from '../openapi-schemas.ts';
import { listRoute } from '../read-routes.ts';
import { documentSettingsOf, type AnyRouteSpec, type Ctx, type Services } from '../route.ts';
import { createdReply, writeRecordRoute } from '../write-routes.ts';
import { DIRECT_UPLOAD_PATH, DOWNLOAD_PATH, RAILS_DIRECT_UPLOAD_PATH } from './document-files.ts';

const NOT_FOUND = "Couldn't find Document";
const DUPLICATE = 'The account already has a document with the same bytes (meta.existing_document_id)';
const INCLUDES = ['shipments', 'cargos', 'account', 'user', 'last_document_representation', 'email_submission', 'current_extraction'];
const TAG = 'Documents';

const documentAttributes = z.object({
  id: z.uuid(),
  name: z.string(),
  document_type: z.string().describe(`System-classified type: ${DOCUMENT_TYPE_CODES.join(', ')}`),
  document_type_manual: z.string().nullable(),
  classification_notes: z.string().nullable(),
  source: z.enum(['upload', 'api', 'email', 'split_document']),
  file_name: z.string(),
  file_content_type: z.string().nullable().describe('Sniffed from the bytes, whatever the name or the declared type say'),
  file_size_bytes: z.int().nullable(),
  extraction_status: z.enum(['pending', 'extracted', 'failed']).describe("svc's own: where processing is"),
  extracted_data_manual: z.record(z.string(), z.unknown()).nullable().describe('Data entered by hand (PATCH)'),
  not_tracked: z
    .array(
      z.object({
        number: z.string(),
        request_type: z.enum(['container', 'bill_of_lading', 'booking_number']),
        reason: z.enum(['per_document_limit', 'rate_limited', 'refused']),
        detail: z.string(),
      }),
    )
    .describe(
      "svc's own: numbers the document names that svc did not track by itself, and why: past the numbers one document tracks (per_document_limit), waiting for room under the account's tracking limits (rate_limited: tracked later by itself), or refused (detail says why)",
    ),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
const documentSchema = resourceSchema('document', documentAttributes, {
  relationships: {
    account: toOneSchema('account'),
    user: toOneSchema('user'),
    email_submission: toOneSchema('email_submission'),
    last_document_representation: toOneSchema('document_representation', 'The latest extraction result (include=last_document_representation)'),
    shipments: toManySchema('shipment', 'Shipments the document names'),
    cargos: toManySchema('container', 'Containers the document names'),
  },
}).extend({ links: z.object({ self: z.string(), download: z.string() }) });

const documentBody = z.object({
  data: z.object({
    type: z.literal('document').optional(),
    attributes: z.object({
      name: z.string().trim().min(1).max(500),
      attached_document: z.string().min(1).max(200).describe('signed_id of a blob from POST /v2/direct_uploads whose bytes were PUT'),
    }),
  }),
});

const documentPatch = z.object({
  data: z.object({
    type: z.literal('document').optional(),
    id: z.string().optional(),
    attributes: z.object({
      document_type_manual: z
        .string()
        .refine((code) => DOCUMENT_TYPE_CODES.includes(code), { message: `document_type_manual must be one of ${DOCUMENT_TYPE_CODES.join(', ')}`, params: { code: 'invalid' } })
        .nullable()
        .optional(),
      extracted_data_manual: z.record(z.string(), z.unknown()).nullable().optional().describe('Manual key/value data; null clears it'),
    }),
  }),
});

const accepted = z.object({ status: z.literal('accepted') });
const rotateBody = z.object({ degrees: z.unknown().describe('90, 180 or 270') });

const schemaResource = resourceSchema(
  'document_schema',
  z.object({
    document_type: z.string(),
    label: z.string(),
    schema_version: z.string(),
    full_version: z.string(),
    current: z.boolean(),
    draft: z.boolean(),
    active_at: z.iso.datetime().nullable(),
    schema_format: z.literal('json_schema'),
    description: z.string().nullable(),
    schema_payload: z.record(z.string(), z.unknown()),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  }),
  { selfLink: true },
).extend({ id: z.string() });

// ActiveStorage's direct upload, as the reference's clients send and read it.
const directUploadBody = z.object({
  blob: z.object({
    filename: z.string().trim().min(1).max(500),
    content_type: z.string().max(200).nullable().optional(),
    byte_size: z.int().min(0),
    checksum: z.string().regex(/^[A-Za-z0-9+/]{22}==$/, 'must be the base64 MD5 of the bytes (24 characters)'),
  }),
});
const directUploadResponse = z.object({
  id: z.string(),
  key: z.string(),
  filename: z.string(),
  content_type: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  service_name: z.string(),
  byte_size: z.int(),
  checksum: z.string(),
  created_at: z.iso.datetime(),
  signed_id: z.string(),
  direct_upload: z.object({ url: z.url(), headers: z.record(z.string(), z.string()) }),
});

const directUploadRoute: AnyRouteSpec = {
    method: 'POST',
    url: DIRECT_UPLOAD_PATH,
    summary: 'Start a direct upload: a blob, its signed_id and the URL to PUT its bytes to (ActiveStorage-compatible)',
    tag: TAG,
    body: directUploadBody,
    parseBody: validateBody,
    plainJson: true,
    response: { status: 200, description: 'The blob; PUT the bytes to direct_upload.url with direct_upload.headers', schema: directUploadResponse },
    errors: { 413: 'byte_size is over SVC_DOCUMENT_MAX_BYTES' },
    async handler({ services, accountId, body, url: requestUrl }) {
      const settings = documentSettingsOf(services);
      const { blob, signedId, uploadToken } = await createDirectUpload(services.db, services.clock, settings, accountId, body.blob);
      return {
        body: {
          id: blob.id,
          key: blob.id,
          filename: blob.filename,
          content_type: blob.declared_content_type,
          metadata: {},
          service_name: 'postgresql',
          byte_size: blob.byte_size,
          checksum: blob.checksum,
          created_at: blob.created_at.toISOString(),
          signed_id: signedId,
          direct_upload: {
            url: new URL(`${DIRECT_UPLOAD_PATH}/${uploadToken}`, requestUrl).href,
            headers: { 'Content-Type': blob.declared_content_type ?? 'application/octet-stream', 'Content-MD5': blob.checksum },
          },
        },
      };
    },
  };

/** The document the path names, or the reference's 404. */
async function pathDocument({ services, accountId, params }: Ctx<unknown>): Promise<DocumentRow> {
  const row = await findDocument(services.db, accountId, params.id);
  if (!row) throw new NotFound(NOT_FOUND);
  return row;
}

/** sort=created_at, -document_type…: one field, descending with a leading '-'. */
function parseSort(ctx: Ctx<unknown>): DocumentSort {
  const raw = optionalParam(ctx.query, 'sort') ?? '-created_at';
  const field = raw.replace(/^-/, '');
  if (!Object.hasOwn(DOCUMENT_SORTS, field)) throw badParameter('sort', `sort must be one of ${Object.keys(DOCUMENT_SORTS).join(', ')}, with a leading - for descending.`);
  return { field: field as DocumentSort['field'], descending: raw.startsWith('-') };
}

// The reference's 409 for the same bytes twice: its title and meta.
function asDuplicate(err: unknown): unknown {
  if (!(err instanceof Conflict) || err.code !== 'duplicate_document') return err;
  return ApiError.of(409, { title: 'Duplicate document', detail: err.detail, code: err.code, meta: err.meta });
}

/** The file (and name) of a multipart/form-data upload: the part named `file`, or the first file. */
async function multipartUpload(req: FastifyRequest, services: Services) {
  let name: string | undefined;
  let file: { filename: string; mimetype: string; bytes: Buffer } | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'name' || part.fieldname === 'data[attributes][name]') name = String(part.value);
      } else if (!file) {
        file = { filename: part.filename || 'document', mimetype: part.mimetype, bytes: await part.toBuffer() };
      } else {
        await part.toBuffer();
      }
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(documentSettingsOf(services).maxBytes);
    throw ApiError.of(400, { detail: `The multipart body could not be read: ${(err as Error).message}`, code: 'malformed_multipart' });
  }
  if (!file) throw ApiError.of(422, { detail: 'The multipart body has no file part; send the document as a part named file.', code: 'blank', source: { pointer: '/file' } });
  // What the JSON body's schema asks of a name, and what PostgreSQL text can hold (no NUL).
  for (const [member, value] of [['name', name], ['file', file.filename]] as const) {
    if (value !== undefined && (value.length > 500 || value.includes('\u0000'))) {
      throw ApiError.of(422, { detail: `The ${member === 'file' ? 'file name' : 'name'} must be at most 500 characters, without NUL.`, code: 'invalid', source: { pointer: `/${member}` } });
    }
  }
  // A file name past the JSON body's limit is refused above; one within it is kept as its base name, as a direct upload's is.
  return { name, ...file, filename: documentFileName(file.filename) };
}

const jobRoute = (action: 'reextract' | 'reclassify' | 'relink', summary: string): AnyRouteSpec => ({
  method: 'POST',
  url: `/v2/documents/:id/${action}`,
  summary,
  tag: TAG,
  plainJson: true,
  response: { status: 202, description: 'The job is queued; document.extracted (or document.extraction_failed) follows', schema: accepted },
  async handler({ services, accountId, params }) {
    await queueJob(services.db, services.clock, accountId, params.id, action === 'relink' ? 'relink' : 'extract');
    return { status: 202, body: { status: 'accepted' } };
  },
});

export const documentRoutes: AnyRouteSpec[] = [
  listRoute({
    url: '/v2/documents',
    summary: 'List documents',
    tag: TAG,
    type: 'document',
    schema: documentSchema,
    description: 'A page of documents, newest first unless sort says otherwise',
    includes: INCLUDES,
    pageSize: 25,
    filters: [
      { name: 'filter[filename]', description: 'Words of the file name (or the name), all of them, in any case' },
      { name: 'filter[reference]', description: 'A container, bill of lading or booking number the document names' },
      { name: 'filter[document_types]', description: `Any of these types (manual type first): ${DOCUMENT_TYPE_CODES.join(', ')}`, commaSeparated: true },
      { name: 'sort', description: `One of ${Object.keys(DOCUMENT_SORTS).join(', ')}; a leading - for descending (default -created_at)` },
    ],
    list: (ctx, limit, offset) =>
      listDocuments(
        ctx.services.db,
        ctx.accountId,
        {
          filename: optionalParam(ctx.query, 'filter[filename]'),
          reference: optionalParam(ctx.query, 'filter[reference]'),
          document_types: listParam(ctx.query, 'filter[document_types]', oneOf(DOCUMENT_TYPE_CODES)),
        },
        parseSort(ctx),
        limit,
        offset,
      ),
    serialize: (rows) => rows.map(documentResource),
  }),
  {
    method: 'POST',
    url: '/v2/documents',
    summary: 'Upload a document: attributes.attached_document names a direct upload; or send multipart/form-data with a file part (and a name field)',
    tag: TAG,
    body: documentBody,
    multipart: {
      description: 'The file itself, in one request: a part named file (its file name is kept) and, optionally, a name',
      fields: {
        file: { description: 'The document (PDF, PNG, JPEG, TIFF, plain text or .eml; the type is sniffed from the bytes)', file: true },
        name: { description: "The document's name; the file name when absent (data[attributes][name] is read too)" },
      },
      required: ['file'],
      // Capped at the upload limit, one file per request.
      limits: (services) => ({ fileSize: documentSettingsOf(services).maxBytes, files: 1, fields: 10, fieldSize: 10_000 }),
    },
    // A multipart upload has no JSON body: the handler reads its parts.
    parseBody: (schema, raw) => (raw === undefined ? undefined : validateBody(schema, raw)),
    response: { status: 201, description: 'The document; its extraction is queued', schema: recordDocument(documentSchema) },
    errors: { 409: DUPLICATE, 413: 'The file is over SVC_DOCUMENT_MAX_BYTES' },
    async handler(ctx) {
      const { services, accountId, body, req, url } = ctx;
      const settings = documentSettingsOf(services);
      let row: DocumentRow;
      try {
        if (req.isMultipart()) {
          const file = await multipartUpload(req, services);
          row = await createDocument(services.db, services.clock, settings, accountId, { name: file.name, filename: file.filename, declaredContentType: file.mimetype, bytes: file.bytes }, ['file']);
        } else {
          const valid = validateBody(documentBody, body);
          row = await attachDocument(services.db, services.clock, settings, accountId, valid.data.attributes.name, valid.data.attributes.attached_document);
        }
      } catch (err) {
        throw asDuplicate(err);
      }
      return createdReply(documentResource(row), url);
    },
  },
  {
    method: 'GET',
    url: '/v2/documents/types',
    summary: 'List document types',
    tag: TAG,
    plainJson: true,
    response: { status: 200, description: 'The types svc classifies documents into', schema: z.object({ document_types: z.array(z.object({ code: z.string(), label: z.string() })) }) },
    async handler() {
      return { body: { document_types: DOCUMENT_TYPES.map(({ code, label }) => ({ code, label })) } };
    },
  },
  {
    method: 'GET',
    url: '/v2/documents/:id',
    summary: 'Get a document',
    tag: TAG,
    query: [{ name: 'include', description: `Comma-separated relationships to include: ${INCLUDES.join(', ')}` }],
    response: { status: 200, description: 'The document', schema: recordDocument(documentSchema) },
    async handler(ctx) {
      const data = documentResource(await pathDocument(ctx));
      return { body: { data, included: await ctx.include('document', [data]) } };
    },
  },
  writeRecordRoute({
    method: 'PATCH',
    url: '/v2/documents/:id',
    summary: 'Edit a document: its manual type and manual extracted data',
    tag: TAG,
    body: documentPatch,
    schema: documentSchema,
    description: 'The updated document',
    async write({ services, accountId, params, body }) {
      const row = await updateDocument(services.db, accountId, params.id, body.data.attributes, services.clock.now());
      if (!row) throw new NotFound(NOT_FOUND);
      return row;
    },
    serialize: documentResource,
  }),
  {
    method: 'DELETE',
    url: '/v2/documents/:id',
    summary: 'Delete (discard) a document',
    tag: TAG,
    response: { status: 204, description: 'Discarded' },
    async handler({ services, accountId, params }) {
      if (!(await discardDocument(services.db, accountId, params.id, services.clock.now()))) throw new NotFound(NOT_FOUND);
      // fastify sends a 204 without a body, whatever is returned.
      return { status: 204, body: {} };
    },
  },
  {
    method: 'GET',
    url: '/v2/documents/:id/download_url',
    summary: "A signed link to the document's file, valid for SVC_DOCUMENT_LINK_TTL_S",
    tag: TAG,
    plainJson: true,
    response: { status: 200, description: 'The link (no API key needed to follow it until it expires)', schema: z.object({ download_url: z.url() }) },
    async handler(ctx) {
      const doc = await pathDocument(ctx);
      const token = await downloadToken(ctx.services.db, ctx.services.clock, documentSettingsOf(ctx.services), doc);
      return { body: { download_url: new URL(`${DOWNLOAD_PATH}/${token}`, ctx.url).href } };
    },
  },
  jobRoute('reextract', 'Re-extract a document'),
  jobRoute('reclassify', 'Re-classify a document'),
  jobRoute('relink', "Re-link a document to the shipments and containers its numbers name"),
  {
    method: 'POST',
    url: '/v2/documents/:id/rotate',
    summary: "Rotate an image document's pixels clockwise (PNG, JPEG, TIFF; PDFs are refused), then extract it again",
    tag: TAG,
    body: rotateBody,
    parseBody: validateBody,
    plainJson: true,
    response: { status: 202, description: 'The image is turned (its file is the turned bytes, with a new SHA-256) and its extraction queued', schema: accepted },
    errors: { 409: `${DUPLICATE}, or the document was rotated or deleted meanwhile` },
    async handler(ctx) {
      const degrees = ctx.body.degrees;
      if (typeof degrees !== 'number' || !(ROTATIONS as readonly number[]).includes(degrees)) {
        throw ApiError.of(422, { title: 'Invalid rotation', detail: `degrees must be one of: ${ROTATIONS.join(', ')}`, code: 'invalid_rotation', source: { pointer: '/degrees' } });
      }
      try {
        await rotateDocument(ctx.services.db, ctx.services.clock, ctx.accountId, ctx.params.id, degrees as (typeof ROTATIONS)[number]);
      } catch (err) {
        throw asDuplicate(err);
      }
      return { status: 202, body: { status: 'accepted' } };
    },
  },
  {
    method: 'GET',
    url: '/v2/document_schemas/:id',
    summary: "Get a document schema: the JSON Schema of a document type's extracted fields (id: <type>@<version>)",
    tag: 'Document Schemas',
    response: { status: 200, description: 'The schema', schema: recordDocument(schemaResource) },
    async handler({ params, url }) {
      const schema = findDocumentSchema(params.id);
      if (!schema) throw new NotFound(`Couldn't find DocumentSchema with 'id'=${params.id}`);
      return { body: { data: documentSchemaResource(schema), links: { self: url.href } } };
    },
  },
  directUploadRoute,
  // The reference's own path for it (ActiveStorage's), answering alike.
  { ...directUploadRoute, url: RAILS_DIRECT_UPLOAD_PATH, summary: `${directUploadRoute.summary}; the reference's Rails path, the same as POST ${DIRECT_UPLOAD_PATH}` },
];
