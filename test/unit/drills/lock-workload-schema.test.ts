import { describe, expect, it } from 'vitest';
import { parseDrill } from '../../../src/drills/format/schema.js';
import { drillErrors } from './drill-errors.js';

const drill = (contenders: string, rest = '') => `name: t\ncontenders: ${contenders}\nsteps:\n  - sleep: 1s\n${rest}`;
const contendersOf = (contenders: string) => parseDrill(drill(contenders), 'd.yaml').contenders;

describe('drill contenders with workload: lock', () => {
  it('reads hold, think, fencing and path, on the predecessor recipe when none is named', () => {
    expect(
      contendersOf('{ count: 3, workload: lock, hold: 1s, think: 50ms, fencing: off, path: /locks/a }'),
    ).toMatchObject({
      count: 3,
      recipe: 'predecessor',
      lock: { holdMs: 1000, thinkMs: 50, fencing: false },
      path: '/locks/a',
      onDisconnect: 'pause',
      sessionTimeoutMs: 2000,
    });
    expect(contendersOf('{ count: 2, workload: lock }')).toMatchObject({
      path: '/lock',
      lock: { holdMs: 200, thinkMs: 100, fencing: true },
    });
    expect(contendersOf('{ count: 2, workload: lock, hold: 0, think: 0 }').lock).toMatchObject({
      holdMs: 0,
      thinkMs: 0,
    });
  });

  it('accepts the herd and predecessor recipes with the lock', () => {
    expect(contendersOf('{ count: 3, workload: lock, recipe: herd }')).toMatchObject({ recipe: 'herd', lock: {} });
    expect(contendersOf('{ count: 3, workload: lock, recipe: predecessor }')).toMatchObject({ recipe: 'predecessor' });
  });

  it('refuses hold, think and fencing without workload: lock', () => {
    expect(drillErrors(drill('{ count: 2, recipe: predecessor, hold: 1s, think: 1s, fencing: on }'))).toEqual([
      'd.yaml:2: contenders.hold: only applies to workload: lock (remove it, or add workload: lock)',
      'd.yaml:2: contenders.think: only applies to workload: lock (remove it, or add workload: lock)',
      'd.yaml:2: contenders.fencing: only applies to workload: lock (remove it, or add workload: lock)',
    ]);
  });

  it("refuses them with the scheduler, and the scheduler's options with the lock", () => {
    expect(drillErrors(drill('{ count: 2, workload: scheduler, hold: 1s }'))).toEqual([
      'd.yaml:2: contenders.hold: only applies to workload: lock (remove it, or add workload: lock)',
    ]);
    expect(drillErrors(drill('{ count: 2, workload: lock, strategy: random, statusTtl: 3s }'))).toEqual([
      'd.yaml:2: contenders.strategy: only applies to workload: scheduler (remove it, or add workload: scheduler)',
      'd.yaml:2: contenders.statusTtl: only applies to workload: scheduler (remove it, or add workload: scheduler)',
    ]);
  });

  it('refuses recipe: herd with workload: scheduler', () => {
    expect(drillErrors(drill('{ count: 2, workload: scheduler, recipe: herd }'))).toEqual([
      'd.yaml:2: contenders.recipe: workload: scheduler runs on predecessor, not herd (use recipe: predecessor, or leave recipe out)',
    ]);
  });

  it('refuses single-file and the other recipes with the lock', () => {
    expect(drillErrors(drill('{ count: 2, workload: lock, recipe: single-file }'))).toEqual([
      'd.yaml:2: contenders.recipe: workload: lock runs on predecessor or herd, not single-file (use recipe: predecessor, or leave recipe out)',
    ]);
    expect(drillErrors(drill('{ count: 2, workload: lock, recipe: priority }'))).toEqual([
      'd.yaml:2: contenders.recipe: workload: lock runs on predecessor or herd, not priority (use recipe: predecessor, or leave recipe out)',
    ]);
    expect(drillErrors(drill('{ count: 2, workload: lock, exec: [python3, x.py] }'))).toEqual([
      'd.yaml:2: contenders.exec: workload: lock runs its own workers, not a program (remove exec)',
    ]);
  });

  it('refuses bad values of its options', () => {
    expect(drillErrors(drill('{ count: 2, workload: lock, fencing: maybe }'))).toEqual([
      'd.yaml:2: contenders.fencing: "maybe" is unknown (choose one of on, off)',
    ]);
    expect(drillErrors(drill('{ count: 2, workload: lock, hold: long }'))).toEqual([
      'd.yaml:2: contenders.hold: "long" is not a duration (write a duration from 0ms to 1h00m, e.g. 250ms or 2s)',
    ]);
    expect(drillErrors(drill('{ count: 2, workload: lock, path: lock }'))).toEqual([
      'd.yaml:2: contenders.path: "lock" is not a ZooKeeper path (use an absolute path such as /election: letters, digits, . _ : -)',
    ]);
    expect(drillErrors(drill('{ count: 2, workload: mutex }'))).toEqual([
      'd.yaml:2: contenders.workload: "mutex" is unknown (choose one of scheduler, lock)',
    ]);
  });

  it('takes the lock checks only with the lock', () => {
    const d = parseDrill(
      drill(
        '{ count: 3, workload: lock }',
        'checks: [mutualExclusion, fencedWrites, { lockProgress: { within: 5s } }, { notificationsPerRelease: { max: 1 } }]\n',
      ),
      'd.yaml',
    );
    expect(d.checks).toEqual({
      mutualExclusion: {},
      fencedWrites: {},
      lockProgress: { within: 5000 },
      notificationsPerRelease: { max: 1 },
    });
    expect(drillErrors(drill('{ count: 3, recipe: predecessor }', 'checks: [mutualExclusion]\n'))).toEqual([
      'd.yaml:5: checks[0].mutualExclusion: judges the lock workload: it needs lock holders (add workload: lock to contenders)',
    ]);
  });

  it('a variant may switch fencing and recipe, not the workload', () => {
    const d = parseDrill(
      drill(
        '{ count: 2, workload: lock }',
        'checks: [fencedWrites]\nvariants:\n  - { name: fenced, contenders: { fencing: on } }\n  - { name: herd, contenders: { fencing: off, recipe: herd } }\n',
      ),
      'd.yaml',
    );
    expect(d.variants?.map((v) => [v.name, v.contenders.recipe, v.contenders.lock?.fencing])).toEqual([
      ['fenced', 'predecessor', true],
      ['herd', 'herd', false],
    ]);
    expect(
      drillErrors(
        drill('{ count: 2, workload: lock }', 'variants:\n  - { name: s, contenders: { workload: scheduler } }\n'),
      ),
    ).toEqual([
      'd.yaml:6: variants[0].contenders.workload: differs from contenders.workload (the steps and checks depend on it; keep it)',
    ]);
  });
});
