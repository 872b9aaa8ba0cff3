// What a custom field is: the entities it may be put on, the data types it may hold and the
// record types a reference may point at, with the shapes of a definition and an option as the
// value rules read them.

/** The entity types, as the API names them in definitions (`entity_type`). */
export const ENTITY_TYPES = ['Shipment', 'Container', 'TrackingRequest'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** Each entity type's JSON:API resource type (a value's `entity` relationship) and its path segment. */
export const ENTITY_RESOURCE = {
  Shipment: { type: 'shipment', path: 'shipments' },
  Container: { type: 'container', path: 'containers' },
  TrackingRequest: { type: 'tracking_request', path: 'tracking_requests' },
} as const satisfies Record<EntityType, { type: string; path: string }>;

export type EntityResourceType = (typeof ENTITY_RESOURCE)[EntityType]['type'];

/** The entity type of a JSON:API resource type (`shipment` → `Shipment`), undefined when it is none. */
export function entityTypeOfResource(type: string): EntityType | undefined {
  return ENTITY_TYPES.find((e) => ENTITY_RESOURCE[e].type === type);
}

export const DATA_TYPES = ['short_text', 'number', 'date', 'datetime', 'boolean', 'enum', 'enum_multi', 'reference'] as const;
export type DataType = (typeof DATA_TYPES)[number];

/** Data types whose values are options of the definition. */
export const OPTION_TYPES: readonly DataType[] = ['enum', 'enum_multi'];

/** The record types a reference field may point at: svc's own records of the account. */
export const REFERENCE_TYPES = ['shipment', 'container', 'tracking_request', 'party'] as const;
export type ReferenceType = (typeof REFERENCE_TYPES)[number];

/** The rules a definition adds to its data type (all optional); see validation.ts. */
export interface Validation {
  required?: boolean;
  max_length?: number;
  min_length?: number;
  pattern?: string;
  min?: number;
  max?: number;
}

/** What the value rules need of a definition. */
export interface FieldDefinition {
  data_type: DataType;
  reference_type: string | null;
  validation: Validation | null;
  default_format: string | null;
}

/** What the value rules need of an option. */
export interface FieldOption {
  value: string;
  label: string;
}

/** A reference value: a record of the account by type and id. */
export interface ReferenceValue {
  type: string;
  id: string;
}

/**
 * Something wrong with a value: what, a stable code, and where inside the value it is (empty for
 * the value itself, an index into an enum_multi array, `id` of a reference).
 */
export interface ValueProblem {
  problem: string;
  code: string;
  at: (string | number)[];
}

export const isProblem = (x: unknown): x is ValueProblem => typeof x === 'object' && x !== null && 'problem' in x;

/**
 * Whether `text` is well-formed UTF-16: a lone surrogate (which JSON can carry as an escape) has
 * no UTF-8 form, and PostgreSQL's jsonb refuses it, so values holding one are refused up front.
 */
export const isWellFormed = (text: string): boolean => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
