// A domain event: what changed, and the record that says how. Every event is made by domainEvent(),
// which takes the reference type from the vocabulary, so a name and its reference cannot disagree.
import { EVENTS, type EventName, type ReferenceType } from './vocabulary.ts';

export interface DomainEvent {
  account_id: string;
  name: EventName;
  reference_type: ReferenceType;
  reference_id: string;
  shipment_id?: string | null;
  /** Set for events about one container: they are numbered per container. */
  container_id?: string | null;
}

export type EventSubject = Omit<DomainEvent, 'name' | 'reference_type'>;

export function domainEvent(name: EventName, subject: EventSubject): DomainEvent {
  return { ...subject, name, reference_type: EVENTS[name].reference };
}

