import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScenarioGrade } from '../../../src/audit/grade.js';
import { SCENARIOS } from '../../../src/audit/scenarios.js';
import { cardFigure } from '../../../src/audit/words.js';
import { PACKAGE_ROOT } from '../../../src/templates.js';
import { type Recorded, regradeRecorded } from '../../helpers/audit-records.js';

/**
 * The README's cards of what zklab ships (its four recipes, kazoo, Curator under both error policies) as measured:
 * each column is a whole battery recorded on a real lab (`zklab audit --recipe R --drills DIR`), graded again here by
 * today's judges. A judge that changes a verdict, or a README that tells another, fails this test.
 */

const RECORDS = join(PACKAGE_ROOT, 'test', 'fixtures', 'audit-cards');

/** How zklab's recipes and the kazoo and Curator contenders are graded: no probe, their own belief lines. */
const UNPROBED = { probed: false, curatorSessionPolicy: false };

/** Each column of the table: the directory of its records (under RECORDS), and how its members ran. */
const COLUMNS: Readonly<Record<string, Recorded>> = {
  predecessor: { dir: 'predecessor', sessionMs: 2000, grade: UNPROBED },
  herd: { dir: 'herd', sessionMs: 2000, grade: UNPROBED },
  'single-file': { dir: 'single-file', sessionMs: 2000, grade: UNPROBED },
  priority: { dir: 'priority', sessionMs: 2000, grade: UNPROBED },
  kazoo: { dir: 'kazoo-election', sessionMs: 2000, grade: UNPROBED },
  'Curator (standard)': { dir: 'curator-standard', sessionMs: 4000, grade: UNPROBED },
  'Curator (session)': { dir: 'curator-session', sessionMs: 4000, grade: { ...UNPROBED, curatorSessionPolicy: true } },
};

/** A column's battery, graded again by today's judges. */
const graded = (column: string): ScenarioGrade[] => {
  const c = COLUMNS[column]!;
  return regradeRecorded({ ...c, dir: join(RECORDS, c.dir) });
};

/** A grade as the README's table writes it: the verdict, then the failover (for herd, the watch notifications one death sent). */
function cell(g: ScenarioGrade): string {
  const verdict = g.verdict === 'fail' ? '**fail**' : g.verdict === 'unknown' ? 'not judged' : g.verdict;
  if (g.figures.herd !== undefined) return `${verdict}, ${g.figures.herd} notified`;
  return g.figures.failoverMs === undefined ? verdict : `${verdict}, ${cardFigure(g.figures.failoverMs)}`;
}

/** The README's table of cards: its header's columns, and for each scenario row its cells by column. */
function readmeTable(): { columns: string[]; rows: Map<string, Map<string, string>> } {
  const lines = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.startsWith('| scenario | predecessor |'));
  expect(start, 'the README has a table of cards whose header starts "| scenario | predecessor |"').toBeGreaterThan(0);
  const split = (l: string) =>
    l
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim());
  const columns = split(lines[start]!).slice(1);
  const rows = new Map<string, Map<string, string>>();
  for (const l of lines.slice(start + 2)) {
    if (!l.startsWith('|')) break;
    const [name, ...cells] = split(l);
    rows.set(name!.replace(/`/g, ''), new Map(cells.map((c, i) => [columns[i]!, c])));
  }
  return { columns, rows };
}

describe("the README's cards, graded again from their recorded batteries", () => {
  it('has a column for each recorded battery, each battery whole, and a row for each scenario', () => {
    const { columns, rows } = readmeTable();
    expect(columns).toEqual(Object.keys(COLUMNS));
    expect(readdirSync(RECORDS).sort()).toEqual(
      Object.values(COLUMNS)
        .map((c) => c.dir)
        .sort(),
    );
    for (const c of Object.values(COLUMNS))
      for (const s of SCENARIOS) expect(existsSync(join(RECORDS, c.dir, `audit-${s.name}.run.json`)), c.dir).toBe(true);
    expect([...rows.keys()]).toEqual(SCENARIOS.map((s) => s.name));
  });

  it.each(Object.keys(COLUMNS))('%s: the column is its card as graded today', (column) => {
    const want = Object.fromEntries(graded(column).map((g) => [g.scenario, cell(g)]));
    const { rows } = readmeTable();
    const told = Object.fromEntries([...rows].map(([scenario, cells]) => [scenario, cells.get(column)]));
    expect(told).toEqual(want);
  });
});

describe("Curator's cards (LeaderLatch of Debian's Curator 5.4, 4 s sessions)", () => {
  const card = (column: string) =>
    Object.fromEntries(graded(column).map((g) => [g.scenario, [g.verdict, g.why ?? '']]));

  it('show CURATOR-696 under both error policies: after the quorum came back, the old leader led on with its old token', () => {
    for (const column of ['Curator (standard)', 'Curator (session)']) {
      const [verdict, why] = card(column)['quorum-lost']!;
      expect(verdict, column).toBe('fail');
      expect(why, column).toMatch(/^stale leader acted: (c\d) acted \d+× with token \d+ .* after (?!\1)c\d claimed/);
    }
  });

  it('pass cut-off with the standard policy and fail it with the session policy', () => {
    expect(card('Curator (standard)')['cut-off']![0]).toBe('pass');
    expect(card('Curator (session)')['cut-off']).toEqual([
      'fail',
      expect.stringMatching(/^stale leader acted: c\d acted \d+× with token/),
    ]);
  });
});
