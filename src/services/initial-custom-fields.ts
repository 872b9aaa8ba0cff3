// initial_custom_fields of POST /v2/tracking_requests: values for the shipment and containers a
// request will become, checked by the same rules as any value when the request is accepted (a 422
// pointing at the entry at fault) and kept on the request; copied onto the shipment and its
// containers in the transaction that creates them, as the reference does "once the tracking
// request resolves".
import { normaliseContainerNumber } from '../domain/carrier-numbers.ts';
import { isProblem, type EntityType } from '../domain/custom-fields/types.ts';
import { parseValue } from '../domain/custom-fields/values.ts';
import { Invalid, type FieldPath } from '../domain/errors.ts';
import { looksLikeContainerNumber } from '../domain/inference/iso6346.ts';
import { findDefinitions, findDefinitionsBySlug, optionsOf, writeFieldsIfAbsent, type DefinitionRow, type StagedFields, type StagedValue } from '../store/custom-fields.ts';
import { inParallel } from '../store/concurrent.ts';
import type { Queryable } from '../store/db.ts';
import { containersOfShipments } from '../store/shipments.ts';
import type { TrackingRequestRow } from '../store/tracking-requests.ts';
import { storedValue } from './custom-fields.ts';

/** One entry as sent: a slug and a value (left out: the definition's default), and for containers perhaps a number. */
export interface InitialEntry {
  api_slug: string;
  value?: unknown;
  number?: string | null;
}

export interface InitialCustomFields {
  shipment?: InitialEntry[] | null;
  containers?: InitialEntry[] | null;
}

const BASE = ['data', 'attributes', 'initial_custom_fields'];

const ENTITY_OF_LIST = { shipment: 'Shipment', containers: 'Container' } as const satisfies Record<keyof InitialCustomFields, EntityType>;

/**
 * The entries checked and in the form the request keeps (null when there are none), or a 422 at
 * the first entry at fault: a slug the account has no definition of (for that entity type), a
 * value its rules refuse, a number that is no container number, or the same field twice for the
 * same target.
 */
export async function stageInitialFields(db: Queryable, accountId: string, input: InitialCustomFields | null | undefined): Promise<StagedFields | null> {
  const lists = { shipment: input?.shipment ?? [], containers: input?.containers ?? [] };
  if (lists.shipment.length === 0 && lists.containers.length === 0) return null;
  const slugs = [...new Set([...lists.shipment, ...lists.containers].map((e) => e.api_slug))];
  const defs = new Map((await findDefinitionsBySlug(db, accountId, slugs)).map((d) => [d.api_slug, d]));
  const options = await optionsOf(db, [...defs.values()].map((d) => d.id));
  const staged: StagedFields = { shipment: [], containers: [] };
  for (const list of ['shipment', 'containers'] as const) {
    const seen = new Set<string>();
    for (const [i, entry] of lists[list].entries()) {
      const at = (...rest: string[]): FieldPath => [...BASE, list, i, ...rest];
      const def = definitionFor(defs, entry.api_slug, ENTITY_OF_LIST[list], at('api_slug'));
      const number = list === 'containers' ? containerNumber(entry.number, at('number')) : null;
      const target = `${def.id} ${number ?? '*'}`;
      if (seen.has(target)) {
        throw new Invalid(at('api_slug'), `${def.api_slug} is given twice for ${number ? `container ${number}` : list === 'shipment' ? 'the shipment' : 'every container'}; send it once.`, 'duplicate');
      }
      seen.add(target);
      const given = entry.value === undefined ? def.default_value : entry.value;
      const own = options.filter((o) => o.definition_id === def.id);
      const value = await storedValue(db, accountId, def, own, given ?? null, at('value'));
      const item: StagedValue = { definition_id: def.id, ...value };
      if (list === 'shipment') staged.shipment.push(item);
      else staged.containers.push({ ...item, number });
    }
  }
  return staged;
}

function definitionFor(defs: Map<string, DefinitionRow>, slug: string, entityType: EntityType, at: FieldPath): DefinitionRow {
  const def = defs.get(slug);
  if (!def) throw new Invalid(at, `No custom field definition with api_slug '${slug.slice(0, 80)}' in this account.`, 'not_found');
  if (def.entity_type !== entityType) throw new Invalid(at, `'${def.api_slug}' is a field of ${def.entity_type} records, not of ${entityType} records.`, 'wrong_entity_type');
  return def;
}

/** A container number as containers are stored (MSKU1234565), or null for every container (none, or ""). */
function containerNumber(input: string | null | undefined, at: FieldPath): string | null {
  const number = normaliseContainerNumber(input ?? '');
  if (number === '') return null;
  if (!looksLikeContainerNumber(number)) throw new Invalid(at, `number must be a container number (four letters and seven digits, like MSCU1234565), or left out for every container; '${number.slice(0, 40)}' is not.`);
  return number;
}

/**
 * Copies the request's staged values onto the shipment it became and its containers (a container
 * entry with a number onto that container, before one without, which goes to every container),
 * where they have no value of that field yet: a shipment tracked again keeps what users set on it.
 * Each value is checked again against its definition as it is now; one that no longer passes (an
 * option deleted, a rule tightened meanwhile) or whose definition is gone is left out. Returns how
 * many values it wrote.
 */
export async function applyInitialFields(db: Queryable, tr: TrackingRequestRow, shipmentId: string, now: Date): Promise<number> {
  const staged = tr.initial_custom_fields;
  if (!staged || (staged.shipment.length === 0 && staged.containers.length === 0)) return 0;
  const ids = [...new Set([...staged.shipment, ...staged.containers].map((s) => s.definition_id))];
  const [defs, options, containers] = await inParallel(db, [
    () => findDefinitions(db, tr.account_id, ids),
    () => optionsOf(db, ids),
    () => (staged.containers.length > 0 ? containersOfShipments(db, [shipmentId]) : Promise.resolve([])),
  ] as const);
  const byId = new Map(defs.map((d) => [d.id, d]));
  // A value of none (null) needs no row: the entity simply has no value.
  const stillValid = (s: StagedValue) => {
    const def = byId.get(s.definition_id);
    return def !== undefined && s.value !== null && !isProblem(parseValue(def, options.filter((o) => o.definition_id === def.id), s.value));
  };
  const writes: (StagedValue & { entity_type: EntityType; entity_id: string })[] = staged.shipment.filter(stillValid).map((s) => ({ ...s, entity_type: 'Shipment', entity_id: shipmentId }));
  const forContainers = staged.containers.filter(stillValid);
  for (const c of containers) {
    const chosen = new Map<string, StagedValue>();
    for (const s of forContainers) if (s.number === null && !chosen.has(s.definition_id)) chosen.set(s.definition_id, s);
    for (const s of forContainers) if (s.number === c.number) chosen.set(s.definition_id, s);
    for (const s of chosen.values()) writes.push({ ...s, entity_type: 'Container', entity_id: c.id });
  }
  return writeFieldsIfAbsent(db, tr.account_id, writes.map(({ definition_id, value, keys, entity_type, entity_id }) => ({ definition_id, value, keys, entity_type, entity_id })), now);
}
