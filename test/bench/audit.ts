/**
 * `zklab audit` as a user runs it, on a program that joins in a few seconds (the zoo's right build, probed): the
 * quick battery and the whole one, against the issue's budgets (90 s and 5 minutes here). Beside each, the time its
 * scenarios' drills took themselves (steady state, fault, recovery): what the audit adds to them is the rest.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { PACKAGE_ROOT } from '../../src/templates.js';
import { zooAuditWords } from '../helpers/audit-zoo.js';
import { freeTestPorts } from '../helpers/sockets.js';
import { benchDir } from './bench-lab.js';
import { type BenchOptions, type BenchRow, sized } from './types.js';

const BIN = join(PACKAGE_ROOT, 'bin', 'zklab.js');

async function audit(scenarios: string): Promise<{ ms: number; drillsMs: number; count: number }> {
  // Not the tests' helpers (they load vitest, which only runs under it): Debian's python3, as the nodes bench uses.
  const python = '/usr/bin/python3';
  const base = await freeTestPorts([1, 2, 3, 4, 5]);
  const labs = benchDir('audit');
  const t0 = performance.now();
  const r = await execa(
    process.execPath,
    [BIN, 'audit', '--scenarios', scenarios, '--json', '--lab', labs, ...zooAuditWords(python, base, 'none')],
    { reject: false },
  ).finally(() => rmSync(labs, { recursive: true, force: true }));
  const ms = performance.now() - t0;
  const card = JSON.parse(r.stdout) as { exitCode: number; scenarios: { verdict: string; durationMs?: number }[] };
  if (card.exitCode !== 0) throw new Error(`the right build did not pass (exit ${card.exitCode}): ${r.stderr}`);
  const drillsMs = card.scenarios.reduce((sum, s) => sum + (s.durationMs ?? 0), 0);
  return { ms, drillsMs, count: card.scenarios.length };
}

export async function run(opts: BenchOptions): Promise<BenchRow[]> {
  const batteries = sized(
    opts,
    [
      { name: 'quick', scenarios: 'quick', budgetS: 90 },
      { name: 'all', scenarios: 'all', budgetS: 300 },
    ],
    [{ name: 'leader-crash', scenarios: 'leader-crash', budgetS: 90 }],
  );
  const rows: BenchRow[] = [];
  for (const b of batteries) {
    const r = await audit(b.scenarios);
    const s = r.ms / 1000;
    rows.push(
      {
        name: `${b.name} battery (${r.count} scenarios)`,
        value: s,
        unit: 's',
        target: `≤ ${b.budgetS}`,
        pass: s <= b.budgetS,
      },
      { name: `${b.name}: the drills' own time`, value: r.drillsMs / 1000, unit: 's' },
      { name: `${b.name}: audit ÷ its drills`, value: r.ms / Math.max(1, r.drillsMs), unit: '×' },
    );
  }
  return rows;
}
