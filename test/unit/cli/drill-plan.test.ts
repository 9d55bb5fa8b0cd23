import { describe, expect, it } from 'vitest';
import { renderDrillPlan } from '../../../src/cli/views/drill-plan.js';
import { listBuiltinDrills, resolveDrill } from '../../../src/drills/format/builtins.js';
import { parseDrill } from '../../../src/drills/format/schema.js';

const FILE = `name: plan
description: a leader dies, twice
contenders: { count: 3, recipe: predecessor, sessionTimeout: 2s }
steps:
  - wait: { leader: true, timeout: 10s }
  - repeat:
      times: 2
      steps:
        - kill: leader
        - expect: { newLeaderWithin: 3s }
checks:
  - singleLeader
  - liveness: { within: 20s }
expectFailure: [singleLeader]
`;

describe('drill check: what a drill would do, read without a lab', () => {
  it('lists the set-up, each step numbered as a run numbers it with its line, and the checks', () => {
    const text = renderDrillPlan(parseDrill(FILE, 'plan.yaml'), 'plan.yaml', 100);
    const lines = text.split('\n');
    expect(lines.slice(0, 2)).toEqual(['drill plan: valid', 'file: plan.yaml']);
    expect(lines).toContain('contenders: 3 × predecessor recipe, session timeout 2s, path /election');
    const steps = lines.slice(lines.indexOf('steps:') + 1, lines.indexOf('checks:'));
    expect(steps.map((l) => l.trim().split(/\s{2,}/))).toEqual([
      ['0', 'line 3', 'spawn 3 contender(s)'],
      ['1', 'line 5', 'wait for a leader (up to 10s)'],
      ['2', 'line 6', 'repeat 2× (2 step(s))'],
      ['2.1', 'line 9', 'kill leader'],
      ['2.2', 'line 10', 'expect a new leader within 3s'],
    ]);
    expect(lines.slice(lines.indexOf('checks:') + 1)).toEqual([
      '  singleLeader (expected to fail)',
      '  liveness {"within":20000}',
      'run it: `zklab drill run plan.yaml`',
    ]);
  });

  it("describes every built-in drill within 100 columns (its file's path aside)", () => {
    for (const name of listBuiltinDrills()) {
      const text = renderDrillPlan(resolveDrill(name), name, 100);
      expect(text).toMatch(new RegExp(`^drill ${name}: valid\nfile: \\S+${name}\\.yaml\n`));
      for (const line of text.split('\n').filter((l) => !l.startsWith('file: ')))
        expect([...line].length, `${name}: ${line}`).toBeLessThanOrEqual(100);
    }
  });
});
