import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDrill } from '../../../src/drills/format/schema.js';
import { CHECK_NAMES, CHECKERS, DEFAULT_CHECKS, runChecks } from '../../../src/drills/judge/checkers.js';
import { buildHistory } from '../../../src/drills/judge/history.js';
import { PACKAGE_ROOT } from '../../../src/templates.js';
import { drillErrors } from './drill-errors.js';

const drill = (checks?: string) =>
  `name: t\ncontenders: { count: 3, recipe: predecessor }\nsteps:\n  - sleep: 1s\n${checks ? `checks: ${checks}\n` : ''}`;

describe('the checker registry', () => {
  it('names each checker once, in the order results are reported', () => {
    expect(new Set(CHECK_NAMES).size).toBe(CHECKERS.length);
    expect(CHECK_NAMES).toEqual(CHECKERS.map((c) => c.name));
  });

  it('judges a drill that names no checks by the election four', () => {
    expect(DEFAULT_CHECKS).toEqual(['singleLeader', 'failoverTime', 'herdSize', 'liveness']);
    expect(Object.keys(parseDrill(drill(), 'd.yaml').checks)).toEqual(DEFAULT_CHECKS);
  });

  it('takes every checker by its bare name, with no options', () => {
    for (const c of CHECKERS) expect(c.options.safeParse({}).success, c.name).toBe(true);
  });

  it('lists the registered checkers when a check has no known name', () => {
    expect(drillErrors(drill('[{ speed: 1 }]'))).toEqual([
      `d.yaml:5: checks[0].speed: unknown field (use one of: ${CHECK_NAMES.join(', ')})`,
    ]);
  });

  it("refuses a check the contenders give nothing to judge with the checker's own words", () => {
    const traits = { scheduler: false, lock: false, priority: false, failpoints: [] };
    const refused = CHECKERS.filter((c) => c.needs?.(traits) !== undefined);
    expect(refused.length).toBeGreaterThan(0);
    const lines = drillErrors(drill(`[${refused.map((c) => c.name).join(', ')}]`));
    expect(lines).toEqual(refused.map((c, i) => `d.yaml:5: checks[${i}].${c.name}: ${c.needs?.(traits)}`));
  });

  it('runs the checks in registry order, whatever order the drill names them in', () => {
    const h = buildHistory([], [], { start: 0, end: 1000 });
    const config = Object.fromEntries([...CHECK_NAMES].reverse().map((n) => [n, {}]));
    expect(runChecks(h, config).map((r) => r.name)).toEqual(CHECK_NAMES);
  });

  it('is documented: the drill format comment in schema.ts names every checker', () => {
    const source = readFileSync(join(PACKAGE_ROOT, 'src', 'drills', 'format', 'schema.ts'), 'utf8');
    const doc = source.slice(0, source.indexOf('*/'));
    for (const name of CHECK_NAMES) expect(doc, name).toContain(name);
  });
});
