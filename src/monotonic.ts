/**
 * Milliseconds on CLOCK_MONOTONIC (process.hrtime): system-wide, never stepped, and never faked by a clock fault.
 * What intervals, timeouts and deadlines are measured on; only differences between two readings mean anything.
 */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;
