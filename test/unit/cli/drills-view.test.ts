import { stripVTControlCharacters as plain } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  drillListJson,
  drillRunsJson,
  renderDrillList,
  renderDrillRuns,
  renderStepReference,
  renderStepReferenceMarkdown,
  stepReferenceJson,
} from '../../../src/cli/views/drills.js';
import type { Drill } from '../../../src/drills/format/drill.js';
import { stepReference } from '../../../src/drills/format/step-reference.js';
import { sampleResult } from '../drills/sample-result.js';

const drill = (name: string, description?: string) =>
  ({ name, file: `${name}.yaml`, ...(description === undefined ? {} : { description }) }) as Drill;

describe('renderDrillList', () => {
  it('wraps each description under a hanging indent past the longest name', () => {
    const text = plain(renderDrillList([drill('a', 'one two three four five six'), drill('bbb')], 20));
    expect(text.split('\n')).toEqual([
      'a    one two three',
      '     four five six',
      'bbb  ',
      '',
      'run one: `zklab drill run a` (or give the path of a drill file of your own)',
    ]);
  });

  it('reads a description as prose: its line breaks and runs of spaces are single spaces', () => {
    expect(plain(renderDrillList([drill('a', '  one\ntwo   three ')], 60)).split('\n')[0]).toBe('a  one two three');
  });

  it('lists names, descriptions and files as JSON', () => {
    expect(JSON.parse(drillListJson([drill('a', 'x'), drill('b')]))).toEqual({
      drills: [
        { name: 'a', description: 'x', file: 'a.yaml' },
        { name: 'b', description: '', file: 'b.yaml' },
      ],
    });
  });
});

describe('renderDrillRuns', () => {
  it('prints one report for one run, with no tally', () => {
    const blocks = renderDrillRuns([sampleResult()], { compare: false });
    expect(blocks).toHaveLength(1);
    expect(plain(blocks[0]!).split('\n')[0]).toBe('drill zombie-leader: PASSED (12s)');
  });

  it('tallies several runs, after the variants compared when asked', () => {
    const blocks = renderDrillRuns([sampleResult(), sampleResult({ error: 'broke' })], { compare: true });
    expect(blocks).toHaveLength(4);
    expect(blocks.at(-1)).toBe('1 of 2 runs passed');
  });

  it('gives the JSON report of a single run, or every run with a tally', () => {
    expect(JSON.parse(drillRunsJson('d', [sampleResult()])).drill).toBe('zombie-leader');
    const many = JSON.parse(drillRunsJson('d', [sampleResult(), sampleResult({ error: 'broke' })]));
    expect([many.drill, many.runs, many.passed, many.reports.length]).toEqual(['d', 2, 1, 2]);
  });
});

describe('renderStepReference', () => {
  const steps = stepReference();

  it('fits 100 columns, with every kind in a column of its own and its examples as list items under it', () => {
    const lines = plain(renderStepReference(steps, 100)).split('\n');
    expect(lines.filter((l) => l.length > 100)).toEqual([]);
    expect(lines.filter((l) => /^\S/.test(l)).map((l) => l.split(' ')[0])).toEqual(steps.map((s) => s.kind));
    expect(lines).toContain('           - kill: { target: leader, signal: TERM, scope: process }');
    expect(lines).toContain('           fields: target, signal, scope');
  });

  it('escapes the pipes of a Markdown cell and lists examples one to a line', () => {
    const md = renderStepReferenceMarkdown([
      { kind: 'k', summary: 'a | b', fields: ['f'], examples: ['k: 1', 'k: 2'] },
    ]);
    expect(md.split('\n')).toEqual([
      '| step | what it does | fields | examples |',
      '|---|---|---|---|',
      '| `k` | a \\| b | `f` | `k: 1`<br>`k: 2` |',
    ]);
  });

  it('lists every kind as JSON', () => {
    const json = JSON.parse(stepReferenceJson(steps)) as { steps: { kind: string; examples: string[] }[] };
    expect(json.steps.map((s) => s.kind)).toEqual(steps.map((s) => s.kind));
  });
});
