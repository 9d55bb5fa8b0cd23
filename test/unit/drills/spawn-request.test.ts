import { describe, expect, it } from 'vitest';
import { resolveDrill } from '../../../src/drills/format/builtins.js';
import { expandVariants } from '../../../src/drills/format/variants.js';
import { spawnRequestFor } from '../../../src/drills/run/drill-lab.js';
import { BUILTIN_DRILLS } from '../../helpers/builtin-drills.js';

describe('the spawn a drill asks for', () => {
  it.each(BUILTIN_DRILLS)('%s: every contender spawns as `contenders spawn` would take it', (name) => {
    for (const drill of expandVariants(resolveDrill(name))) {
      for (let k = 0; k < drill.contenders.count; k++) expect(() => spawnRequestFor(drill.contenders, k)).not.toThrow();
    }
  });

  it('gives the scheduler its options and puts its election under its root', () => {
    const spec = resolveDrill('scheduler-status-ttl').contenders;
    expect(spawnRequestFor(spec, 0)).toMatchObject({
      recipe: 'predecessor',
      path: '/scheduler/election',
      scheduler: { root: '/scheduler', strategy: 'round-robin', statusTtlMs: 3000 },
    });
    expect(spawnRequestFor({ ...spec, strategy: 'random', path: '/s2' }, 0)).toMatchObject({
      path: '/s2/election',
      scheduler: { root: '/s2', strategy: 'random' },
    });
    expect(spawnRequestFor(resolveDrill('zombie-leader').contenders, 0).scheduler).toBeUndefined();
  });
});
