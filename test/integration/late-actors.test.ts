import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { parseDrill } from '../../src/drills/format/schema.js';
import { expandVariants } from '../../src/drills/format/variants.js';
import { checkVerdicts, drillPassed } from '../../src/drills/judge/result.js';
import { runDrill } from '../../src/drills/run/runner.js';
import { PACKAGE_ROOT } from '../../src/templates.js';
import { explainDrill } from '../helpers/drill-explain.js';
import { freePortBase, HA_PROBE, kazooPython } from '../helpers/ha-system.js';
import { tempDir } from '../helpers/paths.js';

/**
 * A node that begins to act while ZooKeeper names another is a second leader, whenever its acting began: resumed
 * after a freeze, after a heal, after its program was restarted. test/programs/lease_service.py in a build wrong in
 * each of those ways serves as primary again once the fault is over; only the first member ever to lead serves, so
 * no two nodes serve at once and only ZooKeeper's word shows the second leader. singleLeader must fail each wrong
 * build and pass the right one (it serves on a lease and stops when its session is in doubt) on the same drill.
 */

const LEASE_SERVICE = join(PACKAGE_ROOT, 'test', 'programs', 'lease_service.py');

/** The fault of each drill, and its end: what each wrong build acts again after. */
const FAULTS = {
  thaw: ['- pause: leader', '- expect: { newLeaderWithin: 8s }', '- resume: leader'],
  heal: ['- partition: { isolate: leader }', '- expect: { newLeaderWithin: 8s }', '- heal: leader'],
  restart: ['- kill: { target: leader, scope: process }', '- expect: { newLeaderWithin: 8s }', '- sleep: 4s'],
} as const;
type Flaw = keyof typeof FAULTS;

async function drillText(flaw: Flaw): Promise<string> {
  const python = await kazooPython();
  const base = await freePortBase(5);
  // Its marks live outside the lab: a drill's lab goes whole when it ends, and only what zklab made goes with it.
  const dir = tempDir();
  const exec = (build: string) =>
    `[${python}, ${LEASE_SERVICE}, --port-base, "${base}", --flaw, ${build}, --dir, "${dir}", --restart-after, "4"]`;
  return [
    `name: acts-after-${flaw}`,
    'ensemble: { servers: 3 }',
    'contenders:',
    '  count: 2',
    `  exec: ${exec(flaw)}`,
    '  path: /lease',
    '  sessionTimeout: 2000',
    `  probe: [${python}, ${HA_PROBE}, "${base}", "{n}", "{addr}"]`,
    // Once a second is enough to see seconds of acting, and spares a busy machine three Pythons every 250 ms.
    '  probeInterval: 1s',
    'steps:',
    '  - wait: { leader: true, timeout: 20s }',
    '  - sleep: 1s',
    ...FAULTS[flaw].map((s) => `  ${s}`),
    '  - sleep: 3s',
    'checks: [singleLeader]',
    'variants:',
    '  - { name: wrong, expectFailure: [singleLeader] }',
    `  - { name: right, contenders: { exec: ${exec('none')} } }`,
  ].join('\n');
}

describe.concurrent('a node that acts again after a fault, while ZooKeeper names another', () => {
  for (const flaw of Object.keys(FAULTS) as Flaw[]) {
    for (const variant of ['wrong', 'right'] as const) {
      const title =
        variant === 'wrong'
          ? `acts only after a ${flaw}: singleLeader fails`
          : `the right build passes the ${flaw} drill`;
      it(title, async ({ expect }) => {
        const drill = expandVariants(parseDrill(await drillText(flaw), `${flaw}.yaml`)).find((d) =>
          d.name.endsWith(variant),
        )!;
        const dir = join(tempDir(), 'lab');
        const r = await runDrill(drill, { labDir: dir });
        const single = r.checks.find((c) => c.name === 'singleLeader')!;
        expect(
          r.steps.every((s) => s.outcome === 'ok'),
          explainDrill(r),
        ).toBe(true);
        expect(single.passed, explainDrill(r)).toBe(variant === 'right');
        expect(drillPassed(r), explainDrill(r)).toBe(true);
        for (const v of checkVerdicts(r)) expect(v.check.passed).toBe(!v.expectedToFail);
        if (variant === 'wrong')
          expect(single.details.filter((d) => d.level === 'violation').map((d) => d.message)).toContainEqual(
            // Acting again while another is named; or, when the probe never saw it stop (a loaded machine, a probe a
            // second apart), acting on past the moment ZooKeeper named another: both are the second leader.
            expect.stringMatching(
              /^c\d acted as leader by its probe for .* (while ZooKeeper named c\d leader|after ZooKeeper gave leadership to c\d)/,
            ),
          );
        expect(existsSync(dir)).toBe(false);
      }, 120_000);
    }
  }
});
