// Time arithmetic the journey planner's parts share, and how late a journey runs.
import { HOUR, MINUTE } from '../domain/time-units.ts';

/** How late a journey runs: not at all (times as planned), a lot (the slowest speeds, the longest slips), or by chance. */
export type DelayMode = 'none' | 'large' | 'random';

export const at = (base: Date, ms: number) => new Date(base.getTime() + ms);
export const toMinute = (ms: number) => new Date(Math.round(ms / MINUTE) * MINUTE);
export const toHour = (ms: number) => new Date(Math.round(ms / HOUR) * HOUR);
export const latest = (dates: readonly Date[]) => new Date(Math.max(...dates.map((d) => d.getTime())));
