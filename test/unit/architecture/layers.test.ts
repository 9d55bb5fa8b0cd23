import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/templates.js';

/**
 * The order of src/'s layers, lowest first (README, Architecture). A file may import from its own folder and from
 * folders of a lower rank; folders of the same rank stay out of each other. Files directly in src/ (errors,
 * validation, durations, templates) are the ground floor: they import no folder.
 */
const RANK: Readonly<Record<string, number>> = {
  '.': 0,
  zk: 1,
  lab: 1,
  recipes: 2,
  net: 2,
  // Below net/: a lab's faults on hosts are applied over SSH.
  hosts: 1.5,
  ensemble: 3,
  contenders: 4,
  faults: 5,
  inspect: 6,
  drills: 6,
  demo: 7,
  audit: 7,
  cli: 8,
};

const SRC = join(PACKAGE_ROOT, 'src');

/**
 * Rooms inside a big folder, lowest first, with the same rule as the folders: a file may import from its own room
 * and from rooms of a lower rank. `roomOf` gets the path inside the folder.
 */
const INNER: Readonly<Record<string, { rank: Readonly<Record<string, number>>; roomOf: (rel: string) => string }>> = {
  // The lab's ground (its paths and file helpers), then its nodes (processes, containment, node networks), then
  // the lab's records (state, locks, the event log, the registry) and what reads them.
  lab: {
    rank: { ground: 0, node: 1, records: 2 },
    roomOf: (rel) => (rel.startsWith('node/') ? 'node' : ['paths.ts', 'fs.ts'].includes(rel) ? 'ground' : 'records'),
  },
  // A drill's words (types, zod helpers, contender traits, aliases, limits), then its judges (history, checkers,
  // expectations) and the reports drawn from a result, the lab a run owns and its job streams, the step kinds, the
  // drill file (which composes the step kinds' and checkers' schemas), and last the runner.
  drills: {
    rank: { core: 0, judge: 1, report: 2, lab: 2, steps: 3, format: 4, run: 5 },
    roomOf: (rel) => rel.slice(0, rel.indexOf('/')),
  },
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(name) ? [p] : [];
  });
}

/** Relative imports of a file (static, type-only and dynamic), resolved to the .ts/.tsx files they name. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specs.map((s) => {
    const base = resolve(dirname(file), s).replace(/\.js$/, '');
    for (const ext of ['.ts', '.tsx', '/index.ts']) {
      try {
        if (statSync(base + ext).isFile()) return base + ext;
      } catch {
        // try the next ending
      }
    }
    throw new Error(`${relative(SRC, file)} imports ${s}, which names no source file`);
  });
}

const folderOf = (file: string): string => {
  const rel = relative(SRC, file);
  return rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : '.';
};

const files = sourceFiles(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f)]));

describe('layers', () => {
  it('every folder of src/ has a rank', () => {
    expect(files.map(folderOf).filter((f) => RANK[f] === undefined)).toEqual([]);
  });

  it('no import points up or sideways', () => {
    const bad: string[] = [];
    for (const [file, deps] of graph) {
      const from = folderOf(file);
      for (const dep of deps) {
        const to = folderOf(dep);
        if (to !== from && !(RANK[to]! < RANK[from]!)) bad.push(`${relative(SRC, file)} → ${relative(SRC, dep)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('inside a big folder, no import points up or sideways between its rooms', () => {
    const bad: string[] = [];
    for (const [file, deps] of graph) {
      const folder = folderOf(file);
      const inner = INNER[folder];
      if (!inner) continue;
      const within = (f: string) => relative(join(SRC, folder), f);
      const from = inner.roomOf(within(file));
      for (const dep of deps) {
        if (folderOf(dep) !== folder) continue;
        const to = inner.roomOf(within(dep));
        if (to !== from && !(inner.rank[to]! < inner.rank[from]!))
          bad.push(`${relative(SRC, file)} → ${relative(SRC, dep)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('every room inside a big folder has a rank', () => {
    const unranked = files.flatMap((f) => {
      const inner = INNER[folderOf(f)];
      if (!inner) return [];
      const room = inner.roomOf(relative(join(SRC, folderOf(f)), f));
      return inner.rank[room] === undefined ? [relative(SRC, f)] : [];
    });
    expect(unranked).toEqual([]);
  });

  it('no import cycle between files', () => {
    const cycles = new Set<string>();
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (f: string): void => {
      state.set(f, 'open');
      stack.push(f);
      for (const d of graph.get(f) ?? []) {
        if (state.get(d) === 'open')
          cycles.add([...stack.slice(stack.indexOf(d)), d].map((x) => relative(SRC, x)).join(' → '));
        else if (!state.has(d)) visit(d);
      }
      stack.pop();
      state.set(f, 'done');
    };
    for (const f of files) if (!state.has(f)) visit(f);
    expect([...cycles]).toEqual([]);
  });
});
