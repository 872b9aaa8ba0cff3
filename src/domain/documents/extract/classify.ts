// Which kind of document this is, from the words it uses. A document's title (its first lines)
// says most; words of the body add evidence, since an arrival notice mentions a bill of lading and
// a packing list an invoice number. Below a threshold the document is `other`.
import type { Layout } from './layout.ts';
import type { Classification, DocumentType } from './types.ts';

interface Cue {
  re: RegExp;
  /** Weight in the title lines. */
  title: number;
  /** Weight anywhere else. */
  body: number;
}

const cue = (pattern: string, title: number, body: number): Cue => ({ re: new RegExp(`(?<![a-z])(?:${pattern})(?![a-z])`, 'i'), title, body });

const CUES: Readonly<Record<Exclude<DocumentType, 'other'>, Cue[]>> = {
  bill_of_lading: [
    // The title, not the label of the B/L number ("Bill of Lading No.") every other document carries.
    cue(String.raw`(?:bill\s+of\s+lading|(?:sea\s+|express\s+)?waybill)(?!\s*(?:no|nr|number|num|#|ref)(?![a-z]))`, 6, 0.5),
    // A B/L's own clauses, each its own evidence: a document with several of them is one.
    cue(String.raw`shipped\s+on\s+board|laden\s+on\s+board`, 2, 1.5),
    cue(String.raw`(?:number|no\.?)\s+of\s+original|original\s+b\s*/\s*l|non[\s-]?negotiable`, 2, 1.5),
    cue(String.raw`place\s+of\s+receipt|freight\s+(?:prepaid|collect)`, 1, 1),
  ],
  booking_confirmation: [
    cue(String.raw`booking\s+(?:confirmation|acknowledge?ment)|confirmation\s+of\s+booking|booking\s+confirmed`, 7, 3),
    cue(String.raw`cut[\s-]?off|empty\s+(?:pick[\s-]?up|release)|vgm`, 2, 1.5),
  ],
  arrival_notice: [
    cue(String.raw`arrival\s+notice|notice\s+of\s+arrival|arrival\s+notification|cargo\s+arrival`, 7, 3),
    cue(String.raw`last\s+free\s+day|free\s+time|charges\s+due\s+before\s+release|cargo\s+availability`, 2, 1.5),
  ],
  delivery_order: [
    cue(String.raw`delivery\s+order|release\s+order|d\s*/\s*o\s+no`, 7, 3),
    cue(String.raw`please\s+(?:release|deliver)|release\s+the\s+following|to\s+the\s+order\s+of|trucker|haulier`, 2, 1.5),
  ],
  commercial_invoice: [
    cue(String.raw`commercial\s+invoice|pro[\s-]?forma\s+invoice`, 7, 3),
    cue(String.raw`invoice(?!\s*(?:no|nr|number|num|#|date)(?![a-z]))`, 4.5, 0),
    cue(String.raw`unit\s+price|amount\s+due|incoterms?|terms\s+of\s+payment|payment\s+terms`, 2, 1.5),
  ],
  packing_list: [
    cue(String.raw`packing\s+(?:list|slip)`, 7, 3),
    cue(String.raw`net\s+weight|measurement|dimensions|cbm|cartons?\s+no`, 2, 1),
  ],
};

/**
 * Titles as a whole line, matched with a typo or two: OCR reads a large bold title less surely
 * than body text ("Atrival Notice"). Only when the title's exact wording was not found.
 */
const TITLES: Readonly<Record<Exclude<DocumentType, 'other'>, readonly string[]>> = {
  bill_of_lading: ['bill of lading', 'sea waybill', 'waybill'],
  booking_confirmation: ['booking confirmation', 'booking acknowledgement'],
  arrival_notice: ['arrival notice', 'notice of arrival'],
  delivery_order: ['delivery order', 'release order'],
  commercial_invoice: ['commercial invoice', 'invoice'],
  packing_list: ['packing list'],
};
const TITLE_WEIGHT = 6;

/** Levenshtein distance, bounded: anything above `max` is max + 1. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...row) > max) return max + 1;
    previous = row;
  }
  return previous[b.length];
}

const looseTitle = (line: string, title: string) => distance(line, title, title.length < 10 ? 1 : 2) <= (title.length < 10 ? 1 : 2);

const TITLE_LINES = 5;
const THRESHOLD = 4;

export function classify(layout: Layout): Classification {
  const lines = layout.map((cells) => cells.join(' '));
  const title = lines.slice(0, TITLE_LINES).join('\n');
  const body = lines.slice(TITLE_LINES).join('\n');
  const titleLines = lines.slice(0, TITLE_LINES).map((l) => l.toLowerCase().replace(/[^a-z]+/g, ' ').trim());
  const scores = (Object.entries(CUES) as [Exclude<DocumentType, 'other'>, Cue[]][]).map(([type, cues]) => {
    let score = 0;
    for (const c of cues) score += (c.re.test(title) ? c.title : 0) + (c.re.test(body) ? c.body : 0);
    if (score < TITLE_WEIGHT && titleLines.some((line) => TITLES[type].some((t) => looseTitle(line, t)))) score += TITLE_WEIGHT;
    return { type, score };
  });
  scores.sort((a, b) => b.score - a.score);
  const [best, second] = scores;
  if (best.score < THRESHOLD) {
    // Nothing speaks for a type: the weaker the best cue, the surer `other` is.
    return { type: 'other', confidence: round(1 - best.score / (2 * THRESHOLD)) };
  }
  return { type: best.type, confidence: round(best.score / (best.score + second.score + 2)) };
}

const round = (x: number) => Math.round(x * 100) / 100;
