import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, PROGRAMS_DIR } from '../../src/templates.js';
import { ZKLAB_BIN } from '../helpers/cli.js';
import { kazooPython } from '../helpers/ha-system.js';
import { tempDir } from '../helpers/paths.js';

/**
 * The manual is true: every shell example of the README runs as written, in order, each block in a lab of its own,
 * and exits as the README says (0, unless a line's comment says `exits N`). What an example names and the reader
 * brings is supplied here: their own `my_service.py` (a copy of the example zklab ships), a `python3` that imports
 * kazoo, and the drill files the README shows as YAML. The HA examples need nothing brought: zklab ships them
 * (`{programs}`) and finds the Python that runs them (`{python}`). The two commands that set up and run this very suite are CI's (`.ci/run`).
 */

interface Block {
  readonly lang: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly text: string;
}

const README = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');

function fencedBlocks(text: string): Block[] {
  const out: Block[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((l, k) => k > i && /^```\s*$/.test(l));
    out.push({ lang: open[1]!, line: i + 1, text: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return out;
}

/** A command line without its trailing comment (` # …` outside quotes). */
function stripComment(line: string): { command: string; comment: string } {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) {
      return { command: line.slice(0, i).trim(), comment: line.slice(i + 1).trim() };
    }
  }
  return { command: line.trim(), comment: '' };
}

/** Words as a shell splits them (quotes kept together), with no expansion: zklab never runs a shell either. */
function words(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

const blocks = fencedBlocks(README);
const runnable = blocks.filter(
  (b) =>
    (b.lang === 'sh' || b.lang === '') &&
    b.text.split('\n').every((l) => l.trim() === '' || /^(zklab|bin\/setup) /.test(l.trim())),
);
const labs: string[] = [];

afterAll(async () => {
  for (const lab of labs) await execa(process.execPath, [ZKLAB_BIN, 'ensemble', 'down', '--purge', '--lab', lab]);
});

describe('the README, run as written', () => {
  it('has its examples in blocks this test can run, and the two commands CI runs', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(4);
    const setup = runnable.filter((b) => b.text.includes('bin/setup'));
    expect(setup.map((b) => b.text.split('\n').map((l) => stripComment(l).command))).toEqual([
      ['bin/setup && zklab demo', 'bin/setup && npm test'],
    ]);
  });

  // Each block has a directory and a lab of its own: two run side by side (the labs project's maxConcurrency).
  it.concurrent.for(runnable.filter((b) => !b.text.includes('bin/setup')).map((b) => [`line ${b.line}`, b] as const))(
    'the block at %s',
    { timeout: 240_000 },
    async ([, block], { expect }) => {
      const cwd = tempDir();
      const lab = join(tempDir(), 'lab');
      labs.push(lab);
      // What the reader brings: their program, a python3 that can run it, and the drill file the README shows.
      copyFileSync(join(PROGRAMS_DIR, 'my_service.py'), join(cwd, 'my_service.py'));
      const bin = join(cwd, '.bin');
      mkdirSync(bin);
      symlinkSync(await kazooPython(), join(bin, 'python3'));
      for (const yaml of blocks.filter((b) => b.lang === 'yaml')) {
        const name = /^name: ([\w-]+)$/m.exec(yaml.text)?.[1];
        if (name) writeFileSync(join(cwd, `${name}.yaml`), `${yaml.text}\n`);
      }
      const env = { ZKLAB_LAB: lab, FORCE_COLOR: '0', PATH: `${bin}:${process.env.PATH}` };
      for (const line of block.text.split('\n').filter((l) => l.trim() !== '')) {
        const { command, comment } = stripComment(line);
        const [program, ...args] = words(command);
        expect(program).toBe('zklab');
        const expected = Number(/\bexits (\d)\b/.exec(comment)?.[1] ?? 0);
        const r = await execa(process.execPath, [ZKLAB_BIN, ...args], { cwd, env, reject: false, stdin: 'ignore' });
        expect(r.exitCode, `${command}\n${r.stdout}\n${r.stderr}`).toBe(expected);
      }
      // What the examples write lands where they say.
      for (const report of block.text.matchAll(/--report (\S+)/g)) expect(existsSync(join(cwd, report[1]!))).toBe(true);
    },
  );
});
