// When a position report was made. AIS position reports carry only the UTC second; the rest of
// the instant is the time svc received the sentence.

/** A report is not trusted to be more than this far behind its receipt (feed or aggregator delay). */
const MAX_DELAY_MS = 30_000;
/** Nor ahead of it by more than this (the receiver's clock and svc's may differ a little). */
const MAX_AHEAD_MS = 2_000;

/**
 * The instant of a report received at `receivedMs` that says it was made at second `second` of
 * its minute: the latest such instant not after the receipt (give or take clock skew), if it is
 * within MAX_DELAY_MS of the receipt; otherwise the receipt time itself, as the second then
 * cannot be placed in the right minute (a delayed feed, or a transmitter with a wrong clock).
 */
export function reportTime(receivedMs: number, second: number | null): number {
  if (second === null) return receivedMs;
  const minute = receivedMs - (receivedMs % 60_000);
  let at = minute + second * 1000;
  if (at > receivedMs + MAX_AHEAD_MS) at -= 60_000;
  return receivedMs - at <= MAX_DELAY_MS ? at : receivedMs;
}
