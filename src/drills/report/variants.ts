import { formatDuration } from '../../duration.js';
import type { DrillResult } from '../judge/result.js';

/** The measurement of singleLeader by name, 0 when absent. */
function measured(r: DrillResult, name: string): number {
  return r.checks.find((c) => c.name === 'singleLeader')?.measurements?.find((m) => m.name === name)?.value ?? 0;
}

/**
 * One line per run of a drill's variants, side by side: whether two contenders believed they led at once, for how
 * long, and how long a belief outlived ZooKeeper handing leadership to another.
 */
export function renderVariantComparison(results: readonly DrillResult[]): string {
  const rows = results.map((r) => {
    const overlap = measured(r, 'belief overlap (unfrozen)');
    const behind = measured(r, 'belief behind ZooKeeper');
    const single = r.checks.find((c) => c.name === 'singleLeader');
    const verdict = single === undefined ? 'singleLeader not checked' : `singleLeader ${single.passed ? 'held' : `failed (${single.summary})`}`;
    const beliefs = overlap > 0 ? `two believed they led for ${formatDuration(overlap)}` : 'never two believed they led';
    return `  ${r.drill.name}: ${verdict}; ${beliefs}; a belief outlived ZooKeeper's choice by ${formatDuration(behind)}`;
  });
  return ['variants side by side:', ...rows].join('\n');
}
