import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  drifted,
  realNowNs,
  skewed,
  TRUE_CLOCK,
  writeClockFile,
} from '../../../../../src/faults/kinds/clock/clock-file.js';
import { elfFacts } from '../../../../../src/faults/kinds/clock/elf.js';
import { shimLibrary } from '../../../../../src/faults/kinds/clock/library.js';

/** The shim, built as a node's start builds it, preloaded into real programs that print their own clocks. */
const lib = shimLibrary();
const shim = 'path' in lib ? lib.path : undefined;
const dir = mkdtempSync(join(tmpdir(), 'zklab-shim-'));

/** What a Python process reads: its wall clock and its monotonic clock, in seconds. */
function python(file: string): { wall: number; mono: number } {
  const out = execFileSync('python3', ['-c', 'import time; print(time.time(), time.monotonic())'], {
    env: { ...process.env, LD_PRELOAD: shim, ZKLAB_CLOCK_FILE: file },
    encoding: 'utf8',
  });
  const [wall, mono] = out.trim().split(' ').map(Number);
  return { wall: wall!, mono: mono! };
}

describe.skipIf(shim === undefined)('the clock shim, preloaded', () => {
  it('builds once into the cache', () => {
    expect(shim).toMatch(/zklab\/clock\/zklab-clock-[0-9a-f]{16}\.so$/);
    expect(shimLibrary()).toEqual(lib);
  });

  it("fakes a program's wall clock as its file says, and leaves its monotonic clock and everyone else's alone", () => {
    const file = join(dir, 'c1');
    writeClockFile(file, skewed(TRUE_CLOCK, realNowNs(), 30_000));
    const before = python(file);
    const mine = Date.now() / 1000;
    expect(before.wall - mine).toBeGreaterThan(29);
    expect(before.wall - mine).toBeLessThan(31);
    // The monotonic clock is the machine's: Python's reads what ours does.
    expect(Math.abs(before.mono - Number(process.hrtime.bigint()) / 1e9)).toBeLessThan(1);
    writeClockFile(file, skewed(TRUE_CLOCK, realNowNs(), -120_000));
    expect(python(file).wall - Date.now() / 1000).toBeLessThan(-119);
    writeClockFile(file, TRUE_CLOCK);
    expect(Math.abs(python(file).wall - Date.now() / 1000)).toBeLessThan(1);
    // Other programs of the machine, this one included, read true time.
    const date = Number(execFileSync('date', ['+%s'], { encoding: 'utf8' }));
    expect(Math.abs(date - Date.now() / 1000)).toBeLessThan(2);
  });

  it('fakes time() and gettimeofday too (date reads them), and a drift from an earlier reading', () => {
    const file = join(dir, 'c2');
    writeClockFile(file, drifted(TRUE_CLOCK, realNowNs() - 100_000_000_000n, 2));
    const date = Number(
      execFileSync('date', ['+%s'], {
        env: { ...process.env, LD_PRELOAD: shim, ZKLAB_CLOCK_FILE: file },
        encoding: 'utf8',
      }),
    );
    // 100 s ago it began to run at 2×: it reads 100 s ahead now.
    expect(date - Date.now() / 1000).toBeGreaterThan(98);
    expect(date - Date.now() / 1000).toBeLessThan(102);
  });

  it("fakes Node's Date.now() and leaves its hrtime (monotonic) alone", () => {
    const file = join(dir, 'node');
    writeClockFile(file, skewed(TRUE_CLOCK, realNowNs(), 3_600_000));
    const out = execFileSync(process.execPath, ['-e', 'console.log(Date.now(), String(process.hrtime.bigint()))'], {
      env: { ...process.env, LD_PRELOAD: shim, ZKLAB_CLOCK_FILE: file },
      encoding: 'utf8',
    });
    const [wall, hr] = out.trim().split(' ');
    expect(Number(wall) - Date.now()).toBeGreaterThan(3_598_000);
    expect(Number(wall) - Date.now()).toBeLessThan(3_601_000);
    expect(Math.abs(Number(BigInt(hr!) - process.hrtime.bigint()) / 1e6)).toBeLessThan(2000);
  });

  it('is no fault without a file, or with a short one', () => {
    const short = join(dir, 'short');
    writeFileSync(short, Buffer.alloc(8));
    for (const file of [join(dir, 'missing'), short])
      expect(Math.abs(python(file).wall - Date.now() / 1000)).toBeLessThan(1);
  });
});

describe('what an ELF file says of a program', () => {
  it('tells dynamic programs from static ones', () => {
    expect(elfFacts(process.execPath)).toEqual({ dynamic: true, go: false });
    expect(elfFacts('/bin/sh')).toEqual({ dynamic: true, go: false });
    expect(elfFacts(__filename)).toBeUndefined();
  });

  it('sees a Go program by its build-info section, wherever it is linked from', () => {
    const src = join(dir, 'go-like.c');
    // What Go's linker leaves in every binary it makes: a .go.buildinfo section (here with a C compiler's help).
    writeFileSync(
      src,
      'const char info[16] __attribute__((section(".go.buildinfo"), used)) = "\\xff Go buildinf:";\nint main(void) { return 0; }\n',
    );
    execFileSync('cc', ['-o', join(dir, 'go-like'), src]);
    expect(elfFacts(join(dir, 'go-like'))).toEqual({ dynamic: true, go: true });
  });

  it.skipIf(!existsSync('/usr/lib/x86_64-linux-gnu/libc.a'))('sees a static binary as static', () => {
    const src = join(dir, 'static.c');
    writeFileSync(src, 'int main(void) { return 0; }\n');
    execFileSync('cc', ['-static', '-o', join(dir, 'static'), src]);
    expect(elfFacts(join(dir, 'static'))).toEqual({ dynamic: false, go: false });
  });
});
