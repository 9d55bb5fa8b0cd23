import { join } from 'node:path';
import type { LabPaths } from '../../../lab/paths.js';
import { requireState } from '../../../lab/state.js';
import { clockFileChangedAt, isTrue, offsetMsAt, readClockFile, realNowNs } from './clock-file.js';
import { rateWords, signedOffset } from './words.js';

/** Where a node's clock file lives (the node's processes map it). */
export const clockFileOf = (paths: LabPaths, node: string): string => join(paths.kindsDir, 'clock', node);

/** The nodes whose clock is faked now, with their clock files. */
export function fakedNodes(paths: LabPaths): { node: string; file: string }[] {
  const state = requireState(paths);
  const names = [...state.servers.map((s) => s.name), ...state.contenders.map((c) => c.id)];
  return names
    .map((node) => ({ node, file: clockFileOf(paths, node) }))
    .filter(({ file: path }) => !isTrue(readClockFile(path)));
}

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
