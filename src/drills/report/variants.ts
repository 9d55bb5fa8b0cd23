import { formatDuration } from '../../duration.js';
import { checkVerdicts, type DrillResult } from '../judge/result.js';

/** The measurement of singleLeader by name, 0 when absent. */
function measured(r: DrillResult, name: string): number {
  return r.checks.find((c) => c.name === 'singleLeader')?.measurements?.find((m) => m.name === name)?.value ?? 0;
}

/** For an election: whether two contenders believed they led at once, for how long, and how far behind ZooKeeper. */
function beliefs(r: DrillResult): string | null {
  if (!r.checks.some((c) => c.name === 'singleLeader')) return null;
  const overlap = measured(r, 'belief overlap (unfrozen)');
  const behind = measured(r, 'belief behind ZooKeeper');
  const two = overlap > 0 ? `two believed they led for ${formatDuration(overlap)}` : 'never two believed they led';
  return `${two}; a belief outlived ZooKeeper's choice by ${formatDuration(behind)}`;
}

/** One line per run of a drill's variants, side by side: each check's verdict, and for an election the beliefs. */
export function renderVariantComparison(results: readonly DrillResult[]): string {
  const rows = results.map((r) => {
    const verdicts =
      checkVerdicts(r)
        .map((v) => `${v.check.name} ${v.label}`)
        .join(', ') || 'no checks';
    const extra = beliefs(r);
    return `  ${r.drill.name}: ${verdicts}${extra ? `; ${extra}` : ''}`;
  });
  return ['variants side by side:', ...rows].join('\n');
}
