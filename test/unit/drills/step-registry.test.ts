import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseDrill } from '../../../src/drills/format/schema.js';
import { describeStep, STEP_KINDS, stepKindNamed } from '../../../src/drills/steps/registry.js';
import { PACKAGE_ROOT } from '../../../src/templates.js';
import { drillErrors } from './drill-errors.js';

const KINDS = STEP_KINDS.map((k) => k.kind);

/** One valid step of each registered kind, and how it reads; a kind registered without one fails below. */
const EXAMPLES: Readonly<Record<string, readonly [string, string]>> = {
  wait: ['wait: { leader: true, timeout: 10s }', 'wait for a leader (up to 10s)'],
  kill: ['kill: { target: c3, signal: TERM }', 'kill c3 (SIGTERM)'],
  pause: ['pause: leader', 'pause leader'],
  resume: ['resume: all', 'resume all'],
  partition: ['partition: { split: [[zk1], [zk2, zk3, c1]] }', 'partition: split [zk1] | [zk2 zk3 c1]'],
  heal: ['heal: all', 'heal all'],
  delay: ['delay: { target: c2, ms: 300, jitter: 50 }', 'delay c2 by 300ms ± 50ms'],
  loss: ['loss: { target: c2, percent: 30 }', 'loss c2 30%'],
  clock: ['clock: { target: zk1, offset: -2m }', "zk1's clock -2m00s"],
  spawn: ['spawn: 1', 'spawn 1 contender(s)'],
  stop: ['stop: c2', 'stop c2'],
  restart: ['restart: zk1', 'restart zk1'],
  add: ['add: observer', 'add a server (observer) by reconfig'],
  remove: ['remove: zk-leader', 'remove zk-leader by reconfig'],
  sleep: ['sleep: 2s', 'sleep 2s'],
  jobs: ['jobs: { submit: 9, kind: sleep, ms: 3s }', 'submit 9 sleep jobs (3s each)'],
  failpoint: [
    'failpoint: { target: leader, at: before-assign, action: crash }',
    'failpoint in leader: crash at before-assign',
  ],
  priority: ['priority: { set: { c2: 50 } }', 'policy: priority c2 = 50'],
  expect: ['expect: { newLeaderWithin: 3s }', 'expect a new leader within 3s'],
  log: ['log: "c1 leads; now kill it"', 'c1 leads; now kill it'],
};

/** Contenders every example may run against: the scheduler's workers have failpoints and jobs. */
function drillWith(step: string, contenders = '{ count: 3, recipe: predecessor, workload: scheduler }') {
  return parseDrill(`name: t\ncontenders: ${contenders}\nsteps:\n  - ${step}\n`, 'd.yaml');
}

describe('the step kind registry', () => {
  it('registers each kind once, none of them repeat (the step list runs that)', () => {
    expect(new Set(KINDS).size).toBe(KINDS.length);
    expect(KINDS).not.toContain('repeat');
    for (const kind of KINDS) expect(stepKindNamed(kind)?.kind).toBe(kind);
  });

  it('gives every kind a schema for its value', () => {
    for (const k of STEP_KINDS) expect(k.schema, k.kind).toBeInstanceOf(z.ZodType);
  });

  it('has an example for every kind, which parses into a step of that kind and reads as a line', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual([...KINDS].sort());
    for (const [kind, [yaml, line]] of Object.entries(EXAMPLES)) {
      const contenders = kind === 'priority' ? '{ count: 3, recipe: priority }' : undefined;
      const [step] = drillWith(yaml, contenders).steps;
      expect(step?.kind, yaml).toBe(kind);
      expect(describeStep(step!), yaml).toBe(line);
    }
  });

  it('reads a bare heal, and a heal without a value, as heal: all', () => {
    for (const step of ['heal', 'heal:']) {
      const [read] = drillWith(step).steps;
      expect(read, step).toMatchObject({ kind: 'heal', target: 'all' });
      expect(describeStep(read!)).toBe('heal all');
    }
  });

  it('takes resume: paused, as `zklab resume paused` does, and names it among what a resume may name', () => {
    const [read] = drillWith('resume: paused').steps;
    expect(read).toMatchObject({ kind: 'resume', target: 'paused' });
    expect(describeStep(read!)).toBe('resume paused');
    expect(drillErrors('name: t\ncontenders: { count: 3 }\nsteps:\n  - resume: everyone\n')).toEqual([
      'd.yaml:4: steps[0].resume: "everyone" is not a target (use leader, zk-leader, c1..c3, zk1..zk3, all, paused)',
    ]);
  });

  it('asks a kind that needs a value for one, with its first example', () => {
    for (const step of ['kill', 'kill:', 'restart: ']) {
      const kind = step.replace(/:.*$/, '');
      const example = stepKindNamed(kind)!.examples[0];
      expect(drillErrors(`name: t\ncontenders: { count: 3 }\nsteps:\n  - ${step}\n`), step).toEqual([
        `d.yaml:4: steps[0].${kind}: needs a value (write ${example})`,
      ]);
    }
  });

  it('lists the registered kinds, then repeat, when a step has no known kind', () => {
    const [line] = drillErrors('name: t\ncontenders: { count: 3 }\nsteps:\n  - explode: leader\n');
    expect(line).toBe(`d.yaml:4: steps[0].explode: unknown step kind (use one of: ${[...KINDS, 'repeat'].join(', ')})`);
  });

  it("explains each kind's fields written next to it instead of inside it", () => {
    for (const k of STEP_KINDS.filter((k) => k.fields !== undefined)) {
      const field = k.fields![0]!;
      const lines = drillErrors(`name: t\ncontenders: { count: 3 }\nsteps:\n  - ${k.kind}: {}\n    ${field}: 1\n`);
      expect(lines).toContain(
        `d.yaml:5: steps[0].${field}: belongs inside the ${k.kind} step (write ${k.kind}: { ..., ${field}: ... })`,
      );
    }
  });

  it('marks the kinds newLeaderWithin measures from: those that change the system, and the priority policy', () => {
    expect(STEP_KINDS.filter((k) => k.fault).map((k) => k.kind)).toEqual([
      'kill',
      'pause',
      'resume',
      'partition',
      'heal',
      'delay',
      'loss',
      'clock',
      'spawn',
      'stop',
      'restart',
      'add',
      'remove',
      'priority',
    ]);
  });

  it('is documented: the drill format comment in schema.ts shows every kind', () => {
    const source = readFileSync(join(PACKAGE_ROOT, 'src', 'drills', 'format', 'schema.ts'), 'utf8');
    const doc = source.slice(0, source.indexOf('*/'));
    for (const kind of [...KINDS, 'repeat']) expect(doc, kind).toMatch(new RegExp(`\\b${kind}: `));
  });
});
