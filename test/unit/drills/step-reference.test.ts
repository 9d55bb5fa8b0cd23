import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderStepReferenceMarkdown } from '../../../src/cli/views/drills.js';
import { DrillFileError, parseDrill } from '../../../src/drills/format/schema.js';
import { stepReference } from '../../../src/drills/format/step-reference.js';
import { STEP_KINDS } from '../../../src/drills/steps/registry.js';
import { PACKAGE_ROOT } from '../../../src/templates.js';

/** Contenders an example may need: the plain election, the scheduler's workers, lock holders, the priority recipe. */
const CONTENDERS = [
  '{ count: 5 }',
  '{ count: 5, workload: scheduler }',
  '{ count: 5, workload: lock }',
  '{ count: 5, recipe: priority, sites: [a, a, b, b, b] }',
];

/** The problems of a drill holding `step` alone, or the kind of the step it read. */
function parse(step: string, contenders: string): { kind: string } | { problems: string } {
  try {
    const [first] = parseDrill(`name: t\ncontenders: ${contenders}\nsteps:\n  - ${step}\n`, 'd.yaml').steps;
    return { kind: first?.kind ?? 'nothing' };
  } catch (e) {
    if (e instanceof DrillFileError) return { problems: e.message };
    throw e;
  }
}

describe('the step reference (`zklab drill steps`)', () => {
  const reference = stepReference();

  it('has every registered kind and repeat, each with a summary and an example', () => {
    expect(reference.map((s) => s.kind)).toEqual([...STEP_KINDS.map((k) => k.kind), 'repeat']);
    for (const s of reference) {
      expect(s.summary, s.kind).toMatch(/^[A-Z].{10,}[^.]$/);
      expect(s.examples.length, s.kind).toBeGreaterThan(0);
    }
  });

  it('has examples that parse, each in a drill of its own whose contenders allow it, into a step of their kind', () => {
    for (const { kind, examples } of reference) {
      for (const example of examples) {
        const tries = CONTENDERS.map((c) => ({ contenders: c, ...parse(example, c) }));
        const read = tries.find((t) => 'kind' in t);
        expect(read?.kind, `${example}\n${tries.map((t) => JSON.stringify(t)).join('\n')}`).toBe(kind);
      }
    }
  });

  it("gives partition its modes' examples and expect its expectations'", () => {
    const examples = (kind: string) => reference.find((s) => s.kind === kind)?.examples;
    expect(examples('partition')).toEqual([
      'partition: { isolate: leader }',
      'partition: { split: [[zk1], [zk2, zk3]] }',
      'partition: { oneWay: [c1, c2] }',
    ]);
    expect(examples('expect')).toContain('expect: { newLeaderWithin: 3s }');
    expect(examples('expect')).toHaveLength(reference.find((s) => s.kind === 'expect')!.fields.length);
  });

  it("is the README's *Drill steps* table, as `zklab drill steps --markdown` prints it", () => {
    const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
    const at = readme.indexOf('\n### Drill steps\n');
    expect(at, 'the README has a subsection "### Drill steps"').toBeGreaterThan(0);
    const section = readme.slice(at + 1).split(/\n#{2,3} /)[0]!;
    const table = section
      .split('\n')
      .filter((l) => l.startsWith('|'))
      .join('\n');
    expect(table).toBe(renderStepReferenceMarkdown(reference));
  });
});
