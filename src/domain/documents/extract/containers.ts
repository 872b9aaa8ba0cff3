// Container numbers anywhere in a document: four letters and seven digits, written with blanks,
// dashes or the check digit in brackets ("MSKU 123456-5", "MSKU 123 456 5", "MSKU123456(5)").
// Only numbers whose ISO 6346 check digit passes are kept: a typo, a seal number or a made-up
// reference that happens to look like a container is never tracked.
import { checkContainerNumber } from '../../inference/iso6346.ts';

const WRITTEN = /(?<![A-Za-z0-9])([A-Z]{3}[UJZ])[\s-]?(\d{3})[\s-]?(\d{3})[\s-]?\(?(\d)\)?(?![0-9])/g;

// OCR reads a 0 as O or a 1 as I now and then; in OCR text those letters count as their digits in
// the digit positions (and the digits as letters in the owner code). The check digit still decides.
const OCR_WRITTEN = /(?<![A-Za-z0-9])([A-Z0-9]{3}[UJZ])[\s-]?([0-9OIlSBZ]{3})[\s-]?([0-9OIlSBZ]{3})[\s-]?\(?([0-9OIlSBZ])\)?(?![0-9])/g;
const AS_DIGIT: Readonly<Record<string, string>> = { O: '0', I: '1', l: '1', S: '5', B: '8', Z: '2' };
const AS_LETTER: Readonly<Record<string, string>> = { '0': 'O', '1': 'I', '5': 'S', '8': 'B', '2': 'Z' };

const digits = (s: string) => s.replace(/[OIlSBZ]/g, (c) => AS_DIGIT[c]);

/** Valid container numbers in order of first appearance, normalised (MSKU1234565). */
export function findContainerNumbers(text: string, ocr = false): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(ocr ? OCR_WRITTEN : WRITTEN)) {
    const owner = ocr ? m[1].replace(/[0-9]/g, (c) => AS_LETTER[c] ?? c) : m[1];
    const number = owner + digits(m[2] + m[3] + m[4]);
    if (!/^[A-Z]{4}\d{7}$/.test(number)) continue;
    if (checkContainerNumber(number).reason === null) found.add(number);
  }
  return [...found];
}
