// The digest of a carrier's answer, for conditional refreshes (issue 14): carriers mostly answer
// "nothing new", and an answer svc has applied already needs no parsing into the diff, no diff and
// no state write. Made of two parts, so each can be judged on its own:
//   events:   the event pages as received (status and body, in order), or NOTHING_NEW when an
//             incremental query ("published since I last asked") found no event;
//   terminal: the terminal answers, by container in a fixed order.
// Stored per shipment (carrier_answer_digest) by the statement that applies the answer.
import { createHash } from 'node:crypto';

/** An incremental query that found nothing: whatever the last answer was, this one adds no event to it. */
const NOTHING_NEW = 'none';

/** What the digest of one HTTP answer is made of. */
export interface HeardAnswer {
  status: number;
  body: string;
}

const hashOf = (answers: HeardAnswer[]) => {
  const hash = createHash('sha256');
  for (const a of answers) hash.update(`${a.status}\n${a.body}\n`);
  return hash.digest('base64url');
};

/** The digest of a lookup's answers; `nothingNew`: an incremental query whose pages held no event. */
export function answerDigest(pages: HeardAnswer[], terminal: HeardAnswer[], nothingNew: boolean): string {
  return `${nothingNew ? NOTHING_NEW : hashOf(pages)}.${hashOf(terminal)}`;
}

/**
 * Whether an answer (`digest`) brings nothing the answer the stored state was brought up to date
 * with (`applied`) did not: the same terminal answers, and the same event pages or no new event.
 */
export function sameAnswer(applied: string | null | undefined, digest: string | undefined): boolean {
  if (!applied || !digest) return false;
  const [events, terminal] = digest.split('.');
  const [appliedEvents, appliedTerminal] = applied.split('.');
  return terminal === appliedTerminal && (events === NOTHING_NEW || events === appliedEvents);
}
