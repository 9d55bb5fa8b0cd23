import { formatDuration } from '../../../duration.js';

/** A clock fault in few words, for the lab's log, the CLI, the report and `inspect`. */

/** `+30s`, `-2m00s`, `+0ms`. */
export const signedOffset = (ms: number): string => `${ms < 0 ? '-' : '+'}${formatDuration(Math.abs(ms))}`;

/** `1.5×`. */
export const rateWords = (rate: number): string => `${Number(rate.toFixed(3))}×`;

/** "zk1's clock +30s". */
export const skewWords = (node: string, offsetMs: number): string => `${node}'s clock ${signedOffset(offsetMs)}`;

/** "c2's clock runs at 1.5×". */
export const driftWords = (node: string, rate: number): string => `${node}'s clock runs at ${rateWords(rate)}`;

/** "zk1's clock true again". */
export const resetWords = (node: string): string => `${node}'s clock true again`;

/** A node's clock as it is: "+30s", "+30s, 1.5×", "1.5×". */
export function clockState(offsetMs: number, rate: number): string {
  const parts = [
    ...(Math.abs(offsetMs) >= 1 ? [signedOffset(offsetMs)] : []),
    ...(rate !== 1 ? [`runs at ${rateWords(rate)}`] : []),
  ];
  return parts.length === 0 ? 'true' : parts.join(', ');
}
