// The digest of a carrier's answer, for conditional refreshes (issue 14): carriers mostly answer
// "nothing new", and an answer svc has applied already needs no parsing into the diff, no diff and
// no state write. Made of two parts, so each can be judged on its own:
//   events:   the event pages as received (status and body, in order), or NOTHING_NEW when an
//             incremental query ("published since I last asked") found no event;
//   terminal: each container's terminal answer, as `number:hash`, by container number.
// Stored per shipment (carrier_answer_digest) by the statement that applies the answer.
import { createHash } from 'node:crypto';

/** An incremental query that found nothing: whatever the last answer was, this one adds no event to it. */
const NOTHING_NEW = 'none';

/** What the digest of one HTTP answer is made of; status 0: no answer came (a terminal's failure, which is no news). */
export interface HeardAnswer {
  status: number;
  body: string;
}

const hashOf = (answers: HeardAnswer[]) => {
  const hash = createHash('sha256');
  for (const a of answers) hash.update(`${a.status}\n${a.body}\n`);
  return hash.digest('base64url');
};

/**
 * The digest of a lookup's answers; `terminal`: by container number; `nothingNew`: an
 * incremental query whose pages held no event. A terminal that gave no answer is left out.
 */
export function answerDigest(pages: HeardAnswer[], terminal: [string, HeardAnswer][], nothingNew: boolean): string {
  const boxes = terminal.filter(([, a]) => a.status !== 0).map(([number, a]) => `${number}:${hashOf([a]).slice(0, 22)}`);
  return `${nothingNew ? NOTHING_NEW : hashOf(pages)}.${boxes.sort().join(',')}`;
}

/**
 * Whether an answer (`digest`) brings nothing the answer the stored state was brought up to date
 * with (`applied`) did not: the same event pages or no new event, and for each container the
 * terminal answered about, the answer applied. A container the terminal was not asked about (or
 * did not answer for) is no news: the diff keeps what the terminal said last (terminal.ts), so
 * the answer that asked fewer boxes than the one applied brings nothing new either.
 */
export function sameAnswer(applied: string | null | undefined, digest: string | undefined): boolean {
  if (!applied || !digest) return false;
  const [events, terminal] = digest.split('.');
  const [appliedEvents, appliedTerminal = ''] = applied.split('.');
  if (events !== NOTHING_NEW && events !== appliedEvents) return false;
  if (terminal === '') return true;
  const known = new Set(appliedTerminal.split(','));
  return terminal.split(',').every((box) => known.has(box));
}
