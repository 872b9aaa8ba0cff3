// Custom field definitions, their options and values as JSON:API resources, named as the
// reference service names them.
import { ENTITY_RESOURCE } from '../../domain/custom-fields/types.ts';
import type { DefinitionView, FieldView } from '../../services/custom-fields.ts';
import type { OptionRow } from '../../store/custom-fields.ts';
import { iso, toMany, toOne, type Resource } from '../document.ts';

export const definitionPath = (id: string) => `/v2/custom_field_definitions/${id}`;

export function customFieldDefinitionResource({ row, optionIds }: DefinitionView): Resource {
  return {
    id: row.id,
    type: 'custom_field_definition',
    attributes: {
      entity_type: row.entity_type,
      api_slug: row.api_slug,
      display_name: row.display_name,
      description: row.description,
      data_type: row.data_type,
      reference_type: row.reference_type,
      validation: row.validation,
      default_format: row.default_format,
      default_value: row.default_value ?? null,
      // The reference's service-wide templates; svc has none.
      template_id: null,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    },
    relationships: { account: toOne('account', row.account_id), options: toMany('custom_field_option', optionIds) },
    links: { self: definitionPath(row.id) },
  };
}

export function customFieldOptionResource(row: OptionRow): Resource {
  return {
    id: row.id,
    type: 'custom_field_option',
    attributes: { label: row.label, value: row.value, position: row.position, created_at: iso(row.created_at), updated_at: iso(row.updated_at) },
    relationships: { definition: toOne('custom_field_definition', row.definition_id) },
    links: { self: `${definitionPath(row.definition_id)}/options/${row.id}` },
  };
}

export function customFieldResource({ row, apiSlug, displayValue }: FieldView): Resource {
  return {
    id: row.id,
    type: 'custom_field',
    attributes: { api_slug: apiSlug, value: row.value ?? null, display_value: displayValue, created_at: iso(row.created_at), updated_at: iso(row.updated_at) },
    relationships: { entity: toOne(ENTITY_RESOURCE[row.entity_type].type, row.entity_id), definition: toOne('custom_field_definition', row.definition_id) },
    links: { self: `/v2/custom_fields/${row.id}` },
  };
}
