import type { LabPaths } from '../../../lab/paths.js';
import { clockFileChangedAt, offsetMsAt, readClockFile, realNowNs } from './clock-file.js';
import { fakedNodes } from './clock.js';
import { rateWords, signedOffset } from './words.js';

/** A node whose clock is faked, as `clock list` and `inspect` show it. */
export interface ClockRow {
  readonly node: string;
  readonly offsetMs: number;
  /** `+30s`. */
  readonly offset: string;
  readonly rateValue: number;
  /** `1.5×`. */
  readonly rate: string;
  /** When its latest change was made. */
  readonly sinceMs: number;
}

/** Every node whose clock is faked now, read from their clock files. */
export function clockList(paths: LabPaths): ClockRow[] {
  const now = realNowNs();
  return fakedNodes(paths).map(({ node, file }) => {
    const c = readClockFile(file);
    const offsetMs = Math.round(offsetMsAt(c, now));
    return {
      node,
      offsetMs,
      offset: signedOffset(offsetMs),
      rateValue: c.rate,
      rate: rateWords(c.rate),
      sinceMs: clockFileChangedAt(file) ?? Date.now(),
    };
  });
}
