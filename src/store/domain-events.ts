// The outbox of emitted events, written in the same transaction as the change each describes.
import type { Queryable } from './db.ts';

export interface DomainEvent {
  account_id: string;
  name: string;
  reference_type: string;
  reference_id: string;
  shipment_id?: string | null;
  container_id?: string | null;
}

export async function recordEvents(db: Queryable, events: DomainEvent[], at: Date): Promise<void> {
  if (events.length === 0) return;
  await db.query(
    `INSERT INTO domain_events (account_id, name, reference_type, reference_id, shipment_id, container_id, created_at)
     SELECT e.account_id, e.name, e.reference_type, e.reference_id, e.shipment_id, e.container_id, $2
       FROM jsonb_to_recordset($1::jsonb) AS e(account_id uuid, name text, reference_type text, reference_id uuid, shipment_id uuid, container_id uuid)`,
    [JSON.stringify(events), at],
  );
}

export async function listDomainEvents(db: Queryable, accountId: string, afterId = 0): Promise<(DomainEvent & { id: number; created_at: Date })[]> {
  const { rows } = await db.query('SELECT * FROM domain_events WHERE account_id = $1 AND id > $2 ORDER BY id', [accountId, afterId]);
  return rows;
}
