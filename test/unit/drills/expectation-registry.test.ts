import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseDrill } from '../../../src/drills/format/schema.js';
import type { ExpectStep } from '../../../src/drills/steps/expect.js';
import {
  describeExpectation,
  EXPECTATION_KINDS,
  expectationKindOf,
} from '../../../src/drills/steps/expectations/registry.js';
import { PACKAGE_ROOT } from '../../../src/templates.js';
import { drillErrors } from './drill-errors.js';

const KINDS = EXPECTATION_KINDS.map((k) => k.kind);

/** One valid value of each registered kind, and how it reads; a kind registered without one fails below. */
const EXAMPLES: Readonly<Record<string, readonly [string, string]>> = {
  newLeaderWithin: ['newLeaderWithin: 3s', 'a new leader within 3s'],
  noLeaderChange: ['noLeaderChange: 2s', 'no leader change for 2s'],
  leaderIs: ['leaderIs: c2', 'c2 leads'],
  leaderIsNot: ['leaderIsNot: c1', 'c1 does not lead'],
  notificationsPerDeath: ['notificationsPerDeath: { max: 1 }', 'at most 1 notified per leader death'],
  state: ['state: { c1: follower }', 'c1 is follower'],
  allJobsDoneWithin: ['allJobsDoneWithin: 20s', 'every job done within 20s'],
  everyoneAcquiresWithin: ['everyoneAcquiresWithin: 5s', 'every live contender holds the lock within 5s'],
};

const drill = (expectation: string, workload = 'scheduler') =>
  `name: t\ncontenders: { count: 3, recipe: predecessor, workload: ${workload} }\nsteps:\n  - expect: { ${expectation} }\n`;

describe('the expectation kind registry', () => {
  it('registers each kind once', () => {
    expect(new Set(KINDS).size).toBe(KINDS.length);
  });

  it('gives every kind a schema for its value', () => {
    for (const k of EXPECTATION_KINDS) expect(k.schema, k.kind).toBeInstanceOf(z.ZodType);
  });

  it('has an example for every kind, which parses into an expectation of that kind and reads as a line', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual([...KINDS].sort());
    for (const [kind, [yaml, line]] of Object.entries(EXAMPLES)) {
      const workload = kind === 'everyoneAcquiresWithin' ? 'lock' : 'scheduler';
      const step = parseDrill(drill(yaml, workload), 'd.yaml').steps[0] as ExpectStep;
      expect(
        step.expectations.map((e) => e.kind),
        yaml,
      ).toEqual([kind]);
      expect(expectationKindOf(step.expectations[0]!).kind).toBe(kind);
      expect(describeExpectation(step.expectations[0]!), yaml).toBe(line);
    }
  });

  it('lists every kind when an expect step expects nothing or something unknown', () => {
    const [none] = drillErrors(drill(''));
    expect(none).toBe(
      `d.yaml:4: steps[0].expect: expects nothing (add ${KINDS.slice(0, -1).join(', ')} or ${KINDS.at(-1)})`,
    );
    const [unknown] = drillErrors(drill('soon: 1s'));
    expect(unknown).toBe(`d.yaml:4: steps[0].expect.soon: unknown field (use one of: ${KINDS.join(', ')})`);
  });

  it("refuses a kind the contenders give nothing to judge with the kind's own words", () => {
    const traits = { scheduler: false, lock: false, priority: false, failpoints: [] };
    const refused = EXPECTATION_KINDS.filter((k) => k.needs?.(traits) !== undefined);
    expect(refused.map((k) => k.kind)).toEqual(['allJobsDoneWithin', 'everyoneAcquiresWithin']);
    for (const k of refused) {
      const lines = drillErrors(`name: t\ncontenders: { count: 3 }\nsteps:\n  - expect: { ${EXAMPLES[k.kind]![0]} }\n`);
      expect(lines).toEqual([`d.yaml:4: steps[0].expect.${k.kind}: ${k.needs?.(traits)}`]);
    }
  });

  it('is documented: the drill format comment in schema.ts shows every kind', () => {
    const source = readFileSync(join(PACKAGE_ROOT, 'src', 'drills', 'format', 'schema.ts'), 'utf8');
    const doc = source.slice(0, source.indexOf('*/'));
    for (const kind of KINDS) expect(doc, kind).toMatch(new RegExp(`\\b${kind}: `));
  });
});
