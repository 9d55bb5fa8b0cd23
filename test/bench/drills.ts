/**
 * Issue 6: the built-in drill suite's wall time (whole and per drill), and failover figures per recipe and kill
 * signal side by side, each taken by the failoverTime checker from a drill run on a real ensemble.
 */
import { listBuiltinDrills, resolveDrill } from '../../src/drills/format/builtins.js';
import { drillPassed, type DrillResult } from '../../src/drills/judge/result.js';
import { runDrill } from '../../src/drills/run/runner.js';
import { parseDrill } from '../../src/drills/format/schema.js';
import { expandVariants } from '../../src/drills/format/variants.js';
import type { RecipeName } from '../../src/recipes/types.js';
import { type BenchOptions, type BenchRow, median, sized } from './types.js';

type Signal = 'KILL' | 'TERM';
const SEED = 6;

/**
 * The smoke runs no built-in drill (the test suite runs them all, so the suite's row reports 0 runs) and one failover
 * drill, of the recipe whose drill differs (priority) and the signal that needs no session to expire.
 */
const sizes = (opts: BenchOptions) => ({
  builtins: sized<readonly string[]>(opts, listBuiltinDrills(), []),
  recipes: sized<readonly RecipeName[]>(opts, ['predecessor', 'herd', 'single-file', 'priority'], ['priority']),
  signals: sized<readonly Signal[]>(opts, ['KILL', 'TERM'], ['TERM']),
  deaths: sized(opts, 3, 1),
});

/** Three leader deaths by one signal, a fresh contender after each so that every death has four contenders around. */
function failoverDrill(recipe: RecipeName, signal: Signal, deaths: number): string {
  const priority = recipe === 'priority' ? ', priorities: [40, 30, 20, 10], takeoverMs: 200ms' : '';
  return `name: failover-${recipe}-${signal.toLowerCase()}
contenders: { count: 4, recipe: ${recipe}, sessionTimeout: 2s${priority} }
steps:
  - wait: { joined: 4, timeout: 20s }
  - wait: { leader: true, timeout: 10s }
  - repeat:
      times: ${deaths}
      steps:
        - kill: { target: leader, signal: ${signal} }
        # Waiting for the death's notifications to settle keeps the join of the next spawn out of its count.
        - expect: { newLeaderWithin: 8s, notificationsPerDeath: { max: 20 } }
        - spawn: 1
        - wait: { joined: 4, timeout: 10s }
checks: [singleLeader, failoverTime, herdSize]
`;
}

function measurements(r: DrillResult, check: string, prefix: string): number[] {
  return (r.checks.find((c) => c.name === check)?.measurements ?? [])
    .filter((m) => m.name.startsWith(prefix) && m.value !== null)
    .map((m) => m.value as number);
}

async function timed(run: () => Promise<DrillResult>): Promise<{ r: DrillResult; ms: number }> {
  const start = performance.now();
  const r = await run();
  return { r, ms: performance.now() - start };
}

export async function run(opts: BenchOptions): Promise<BenchRow[]> {
  const { builtins, recipes, signals, deaths } = sizes(opts);
  const rows: BenchRow[] = [];
  let suiteMs = 0;
  let passed = 0;
  // A drill with variants is one run per variant, as `zklab drill run` does it (each with its expected failures).
  const drills = builtins.flatMap((name) => expandVariants(resolveDrill(name)));
  for (const drill of drills) {
    const { r, ms } = await timed(() => runDrill(drill, { seed: SEED }));
    suiteMs += ms;
    if (drillPassed(r)) passed++;
    rows.push({
      name: `drill ${drill.name} wall time`,
      value: ms / 1000,
      unit: 's',
      target: 'passes',
      pass: drillPassed(r),
    });
  }
  rows.unshift({
    name: `built-in suite wall time (${drills.length} runs, serial)`,
    value: suiteMs / 1000,
    unit: 's',
    target: `${drills.length}/${drills.length} pass`,
    pass: passed === drills.length,
  });

  for (const signal of signals) {
    for (const recipe of recipes) {
      const drill = parseDrill(failoverDrill(recipe, signal, deaths), `bench:failover-${recipe}-${signal}`);
      const { r } = await timed(() => runDrill(drill, { seed: SEED }));
      const failovers = measurements(r, 'failoverTime', 'failover after');
      const woken = measurements(r, 'herdSize', 'notified after');
      const ok = drillPassed(r) && failovers.length === deaths;
      const label = `${recipe} ${signal}`;
      rows.push({
        name: `failover ${label}: median of ${failovers.length}`,
        value: failovers.length ? median(failovers) : NaN,
        unit: 'ms',
        target: `${deaths} failovers`,
        pass: ok,
      });
      rows.push({
        name: `failover ${label}: slowest`,
        value: failovers.length ? Math.max(...failovers) : NaN,
        unit: 'ms',
      });
      rows.push({
        name: `notified per leader death ${label}: max`,
        value: woken.length ? Math.max(...woken) : NaN,
        unit: 'contenders',
      });
    }
  }
  return rows;
}
