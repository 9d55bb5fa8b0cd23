import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseAnchor, TIME_ANCHOR_ENV, timeAnchor } from '../../../src/lab/lab-time.js';

describe("the lab's true time in a node", () => {
  it('anchors at the turn of a millisecond: the wall time then, and the monotonic clock read with it', () => {
    const a = parseAnchor(timeAnchor())!;
    const hrNow = process.hrtime.bigint();
    const wallNow = Date.now();
    // Carried forward on the monotonic clock, it reads what Date.now() reads (to the millisecond).
    expect(Math.abs(a.wallMs + Math.floor(Number(hrNow - a.hrNs) / 1e6) - wallNow)).toBeLessThanOrEqual(1);
    expect(parseAnchor('nonsense')).toBeUndefined();
  });

  it("in a process started with an anchor, whatever that process's own clock says", () => {
    // An anchor an hour old, taken an hour ago on the monotonic clock: labNow is still now.
    const hourNs = 3_600_000_000_000n;
    const anchor = `${Date.now() - 3_600_000}:${process.hrtime.bigint() - hourNs}`;
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', '-e', "import('./src/lab/lab-time.ts').then((m) => console.log(m.labNow()))"],
      { env: { ...process.env, [TIME_ANCHOR_ENV]: anchor }, encoding: 'utf8' },
    );
    expect(Math.abs(Number(out.trim()) - Date.now())).toBeLessThan(2000);
  });
});
