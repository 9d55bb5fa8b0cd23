import { basename } from '../recipes/sequence.js';
import type { ElectionLayout } from './snapshot.js';
import { childPath, compareSiblings, parseSequence, parentPath } from './znode-facts.js';

const PRIORITY_MARKERS = ['nodes', 'election', 'leader/elected', 'leader/current'];

/** Reads the recipe layout from which znodes exist, not from what the contenders say they run. */
export function detectLayout(root: string, paths: ReadonlySet<string>): ElectionLayout {
  if (!paths.has(root)) return 'empty';
  if (PRIORITY_MARKERS.some((m) => paths.has(childPath(root, m)))) return 'priority';
  if (paths.has(childPath(root, 'leader'))) return 'single-file';
  return 'sequential';
}

/**
 * The znode whose owner leads, from ZooKeeper's facts alone: the lowest sequence among the election path's
 * children; the single `leader` znode; or the priority recipe's leader/current. Null when there is none.
 */
export function leaderPath(root: string, layout: ElectionLayout, paths: ReadonlySet<string>): string | null {
  switch (layout) {
    case 'empty':
      return null;
    case 'priority': {
      const current = childPath(root, 'leader/current');
      return paths.has(current) ? current : null;
    }
    case 'single-file':
      return childPath(root, 'leader');
    case 'sequential': {
      const candidates = [...paths]
        .filter((p) => p !== root && parentPath(p) === root)
        .map(basename)
        .filter((name) => parseSequence(name) !== null)
        .sort(compareSiblings);
      return candidates[0] === undefined ? null : childPath(root, candidates[0]);
    }
  }
}
