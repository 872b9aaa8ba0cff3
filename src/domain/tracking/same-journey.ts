// Whether a carrier's answer describes a journey svc already tracks as a shipment. B/L and booking
// numbers name one journey; a container number does not (boxes travel again and again), so a
// shipment found through one of its boxes is the same journey only if the documents agree.

export interface KnownJourney {
  request_type: string;
  request_number: string;
  bill_of_lading_number: string | null;
  booking_number: string | null;
}

export interface AnsweredJourney {
  request_type: string;
  /** The number asked, normalised as stored. */
  number: string;
  billOfLadingNumber: string | null;
  bookingNumber: string | null;
}

const same = (a: string, b: string) => a.toUpperCase() === b.toUpperCase();

export function isSameJourney(known: KnownJourney, answer: AnsweredJourney): boolean {
  if (known.bill_of_lading_number && answer.billOfLadingNumber) return same(known.bill_of_lading_number, answer.billOfLadingNumber);
  if (known.booking_number && answer.bookingNumber) return same(known.booking_number, answer.bookingNumber);
  // No document on one side: only the same question to the same line is taken for the same journey,
  // and never for a container number, which later journeys reuse.
  return answer.request_type !== 'container' && known.request_type === answer.request_type && same(known.request_number, answer.number);
}
