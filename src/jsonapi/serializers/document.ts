// Documents, their extraction results (document_representation) and the schemas of each type's
// extracted fields (document_schema), as the reference service shapes them.
import type { DocumentSchema } from '../../domain/documents/types.ts';
import type { DocumentRow, RepresentationRow } from '../../store/documents.ts';
import { iso, toMany, toOne, type Resource } from '../document.ts';

export function documentResource(row: DocumentRow): Resource {
  return {
    id: row.id,
    type: 'document',
    attributes: {
      id: row.id,
      name: row.name,
      document_type: row.document_type,
      document_type_manual: row.document_type_manual,
      classification_notes: row.classification_notes,
      source: row.source,
      file_name: row.file_name,
      file_content_type: row.file_content_type,
      file_size_bytes: row.file_size_bytes,
      // svc's own: where processing is, the data a user entered by hand (PATCH), and the numbers
      // svc did not track by itself.
      extraction_status: row.extraction_status,
      extracted_data_manual: row.extracted_data_manual,
      not_tracked: row.not_tracked,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    },
    relationships: {
      account: toOne('account', row.account_id),
      user: toOne('user', null),
      email_submission: toOne('email_submission', row.email_submission_id),
      last_document_representation: toOne('document_representation', row.last_representation_id),
      shipments: toMany('shipment', row.shipment_ids),
      cargos: toMany('container', row.container_ids),
    },
    links: { self: `/v2/documents/${row.id}`, download: `/v2/documents/${row.id}/download_url` },
  };
}

export function documentRepresentationResource(row: RepresentationRow): Resource {
  return {
    id: row.id,
    type: 'document_representation',
    attributes: { schema_version: row.schema_version, payload: row.payload, created_at: iso(row.created_at), updated_at: iso(row.updated_at) },
  };
}

export function documentSchemaResource(schema: DocumentSchema): Resource {
  const activeAt = iso(new Date(schema.active_at));
  return {
    // The reference's ids are full versions, not uuids.
    id: schema.full_version,
    type: 'document_schema',
    attributes: {
      document_type: schema.document_type,
      label: schema.label,
      schema_version: schema.schema_version,
      full_version: schema.full_version,
      current: schema.current,
      draft: schema.draft,
      active_at: activeAt,
      schema_format: schema.schema_format,
      description: schema.description,
      schema_payload: schema.schema_payload,
      created_at: activeAt,
      updated_at: activeAt,
    },
    links: { self: `/v2/document_schemas/${schema.full_version}` },
  };
}
