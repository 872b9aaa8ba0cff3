// Lengths of time in milliseconds, the unit of Date arithmetic and of the clock (src/clock.ts).

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
