import { describe, expect, it } from 'vitest';
import { serverStep } from '../../../src/drills/format/outside-ensemble.js';
import { parseDrill } from '../../../src/drills/format/schema.js';

const drill = (steps: string) =>
  parseDrill(
    `name: t\ncontenders: { count: 3, recipe: predecessor }\nsteps:\n  - wait: { joined: 3, timeout: 10s }\n${steps}`,
    'd.yaml',
  );

describe('serverStep: what a drill run with --connect cannot do', () => {
  it('lets contender faults through', () => {
    expect(
      serverStep(
        drill(
          '  - kill: leader\n  - pause: c2\n  - resume: all\n  - partition: { isolate: c1 }\n  - partition: { split: [[c1], [c2, c3]] }\n  - delay: { target: c3, ms: 50 }\n  - heal: all\n',
        ),
      ),
    ).toBeUndefined();
  });

  it.each([
    ['  - kill: zk2\n', 'line 5: kill zk2'],
    ['  - restart: all\n', 'line 5: restart all'],
    ['  - partition: { isolate: zk-leader }\n', 'line 5: partition zk-leader'],
    ['  - partition: { split: [[c1, zk1], [zk2, zk3]] }\n', 'line 5: partition zk1'],
    ['  - wait: { serving: zk1, timeout: 5s }\n', 'line 5: wait zk1'],
    ['  - repeat: { times: 2, steps: [{ delay: { target: zk3, ms: 10 } }] }\n', 'line 5: repeat zk3'],
  ])('names the first server step: %j', (steps, expected) => {
    expect(serverStep(drill(steps))).toBe(expected);
  });
});
