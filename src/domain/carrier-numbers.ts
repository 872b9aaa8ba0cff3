// How svc reads a carrier's number (bill of lading, booking, container). Numbers arrive typed,
// pasted from e-mails and PDFs, or echoed by a carrier, so every reader starts from one base rule
// and the variants below add only what their caller knows about the number.

/** The base rule: case and surrounding blanks are not part of a number. */
export function normaliseNumber(number: string): string {
  return number.trim().toUpperCase();
}

/** A container number (ISO 6346) also loses blanks and dashes inside: "msku 123456-5" is MSKU1234565. */
export function normaliseContainerNumber(number: string): string {
  return normaliseNumber(number).replace(/[\s-]+/g, '');
}

/** A tracking request's number loses blanks inside; only a container number loses its dashes too. */
export function normaliseRequestNumber(type: 'bill_of_lading' | 'booking_number' | 'container', number: string): string {
  return type === 'container' ? normaliseContainerNumber(number) : normaliseNumber(number).replace(/\s+/g, '');
}
