import { describe, expect, it } from 'vitest';
import {
  DEFAULT_HOLD_MS,
  DEFAULT_LOCK_PATH,
  DEFAULT_THINK_MS,
  parseSpawnRequest,
  type RawSpawnArgs,
} from '../../../src/contenders/options.js';
import { UsageError } from '../../../src/errors.js';

/** The UsageError parseSpawnRequest throws, message and hint; fails the test if it throws none. */
function refusal(raw: RawSpawnArgs): { message: string; hint: string | undefined } {
  try {
    parseSpawnRequest(raw);
  } catch (err) {
    if (err instanceof UsageError) return { message: err.message, hint: err.hint };
    throw err;
  }
  throw new Error('the request parsed');
}

const LOCK_EXAMPLE = 'e.g. `zklab contenders spawn 5 --workload lock --hold 200ms --think 100ms --fencing on`';
const lock = { count: 3, workload: 'lock' } as const;

describe('parseSpawnRequest: --workload lock', () => {
  it('defaults to hold 200ms, think 100ms, fencing on, path /lock, the predecessor recipe', () => {
    expect([DEFAULT_HOLD_MS, DEFAULT_THINK_MS, DEFAULT_LOCK_PATH]).toEqual([200, 100, '/lock']);
    const r = parseSpawnRequest(lock);
    expect(r).toMatchObject({
      count: 3,
      recipe: 'predecessor',
      path: '/lock',
      sessionTimeoutMs: 2000,
      onDisconnect: 'pause',
    });
    expect(r.lock).toEqual({ holdMs: 200, thinkMs: 100, fencing: true });
    expect(r.scheduler).toBeUndefined();
  });

  it('reads hold, think and fencing as the command line gives them', () => {
    expect(parseSpawnRequest({ ...lock, hold: '1.5s', think: '250ms', fencing: 'off' }).lock).toEqual({
      holdMs: 1500,
      thinkMs: 250,
      fencing: false,
    });
    expect(parseSpawnRequest({ ...lock, hold: 750, think: '2', fencing: 'on' }).lock).toEqual({
      holdMs: 750,
      thinkMs: 2,
      fencing: true,
    });
    expect(parseSpawnRequest({ ...lock, path: '/locks/a' }).path).toBe('/locks/a');
  });

  it('accepts a hold and a think of 0, and up to an hour', () => {
    expect(parseSpawnRequest({ ...lock, hold: '0', think: '0' }).lock).toEqual({
      holdMs: 0,
      thinkMs: 0,
      fencing: true,
    });
    expect(parseSpawnRequest({ ...lock, hold: '60m' }).lock?.holdMs).toBe(3_600_000);
    expect(refusal({ ...lock, hold: '61m' })).toEqual({
      message: '--hold 61m is out of range',
      hint: `give a duration of 0 or more and at most 1h, ${LOCK_EXAMPLE}`,
    });
  });

  it('takes --recipe herd, and predecessor said out loud', () => {
    expect(parseSpawnRequest({ ...lock, recipe: 'herd' })).toMatchObject({
      recipe: 'herd',
      path: '/lock',
      lock: { holdMs: 200, thinkMs: 100, fencing: true },
    });
    expect(parseSpawnRequest({ ...lock, recipe: 'predecessor' }).recipe).toBe('predecessor');
  });

  it('refuses the other recipes and programs', () => {
    const hint =
      'use --recipe predecessor (a queue) or --recipe herd (every waiter watches the lock), or leave --recipe out';
    expect(refusal({ ...lock, recipe: 'priority' })).toEqual({
      message: '--workload lock runs the predecessor or herd recipe, not priority',
      hint,
    });
    expect(refusal({ ...lock, recipe: 'single-file' })).toEqual({
      message: '--workload lock runs the predecessor or herd recipe, not single-file',
      hint,
    });
    expect(refusal({ ...lock, exec: true, program: ['python3', 'x.py'] })).toEqual({
      message: '--workload lock runs the predecessor or herd recipe, not exec',
      hint,
    });
  });

  it('refuses a hold or think that is not a duration', () => {
    expect(refusal({ ...lock, hold: 'abc' })).toEqual({
      message: '--hold: "abc" is not a duration (write a duration such as 500ms, 3s or a number of milliseconds)',
      hint: LOCK_EXAMPLE,
    });
    expect(refusal({ ...lock, think: '-1s' })).toEqual({
      message: '--think: "-1s" is not a duration (write a duration such as 500ms, 3s or a number of milliseconds)',
      hint: LOCK_EXAMPLE,
    });
    expect(refusal({ ...lock, think: -5 })).toEqual({
      message:
        '--think: -5 is not a positive duration (write a duration such as 500ms, 3s or a number of milliseconds)',
      hint: LOCK_EXAMPLE,
    });
    expect(() => parseSpawnRequest({ ...lock, hold: '0.5' })).toThrow(
      '--hold: 0.5 is not a whole number of milliseconds',
    );
  });

  it('refuses an unknown fencing mode and workload', () => {
    expect(refusal({ ...lock, fencing: 'maybe' })).toEqual({
      message: 'unknown --fencing mode "maybe"',
      hint: 'choose one of on, off',
    });
    expect(refusal({ count: 1, workload: 'mutex' })).toEqual({
      message: 'unknown workload "mutex"',
      hint: 'choose one of scheduler, lock',
    });
  });

  it("refuses the priority recipe's options with the lock", () => {
    expect(refusal({ ...lock, priority: '1,2,3' })).toEqual({
      message: '--priority applies to election recipes, not to --workload lock',
      hint: 'drop --priority',
    });
    expect(refusal({ ...lock, site: 'a,b,c' })).toEqual({
      message: '--site applies to election recipes, not to --workload lock',
      hint: 'drop --site',
    });
    expect(refusal({ ...lock, policy: 'site' })).toEqual({
      message: '--policy applies to election recipes, not to --workload lock',
      hint: 'drop --policy',
    });
    expect(refusal({ ...lock, takeoverMs: '500' })).toEqual({
      message: '--takeover-ms applies to election recipes, not to --workload lock',
      hint: 'drop --takeover-ms',
    });
    expect(refusal({ ...lock, recipe: 'predecessor', leaderRule: 'lowest-sequence' }).message).toMatch(
      /^--leader-rule applies to programs/,
    );
    // --no-preempt is refused for the lock's recipe before the workload looks at it.
    expect(refusal({ ...lock, preempt: false })).toEqual({
      message: '--no-preempt applies to the priority recipe only',
      hint: 'drop it, or add --recipe priority',
    });
    expect(refusal({ ...lock, preempt: true })).toEqual({
      message: '--preempt applies to the priority recipe only',
      hint: 'drop it, or add --recipe priority',
    });
  });

  it("refuses the scheduler's options with the lock", () => {
    expect(refusal({ ...lock, strategy: 'random' })).toEqual({
      message: '--strategy applies to --workload scheduler only',
      hint: 'e.g. `zklab contenders spawn 3 --workload scheduler --strategy round-robin --status-ttl 30s`',
    });
    expect(refusal({ ...lock, statusTtl: '30s' }).message).toBe('--status-ttl applies to --workload scheduler only');
  });

  it('refuses hold, think and fencing without the lock workload', () => {
    expect(refusal({ count: 3, hold: '1s' })).toEqual({
      message: '--hold applies to --workload lock only',
      hint: LOCK_EXAMPLE,
    });
    expect(refusal({ count: 3, think: '1s' })).toEqual({
      message: '--think applies to --workload lock only',
      hint: LOCK_EXAMPLE,
    });
    expect(refusal({ count: 3, fencing: 'off' })).toEqual({
      message: '--fencing applies to --workload lock only',
      hint: LOCK_EXAMPLE,
    });
    expect(refusal({ count: 3, workload: 'scheduler', hold: '1s' })).toEqual({
      message: '--hold applies to --workload lock only',
      hint: LOCK_EXAMPLE,
    });
  });

  it('gives no lock options without the workload', () => {
    const r = parseSpawnRequest({ count: 2 });
    expect(r.lock).toBeUndefined();
    expect(r.path).toBe('/election');
  });
});

describe('parseSpawnRequest: preempt', () => {
  it('defaults to true for the priority recipe and takes --no-preempt', () => {
    expect(parseSpawnRequest({ count: 2, recipe: 'priority' }).preempt).toBe(true);
    expect(parseSpawnRequest({ count: 2, recipe: 'priority', preempt: false }).preempt).toBe(false);
    expect(parseSpawnRequest({ count: 2, recipe: 'priority', preempt: true }).preempt).toBe(true);
  });

  it('refuses --no-preempt without the priority recipe', () => {
    expect(refusal({ count: 2, preempt: false })).toEqual({
      message: '--no-preempt applies to the priority recipe only',
      hint: 'drop it, or add --recipe priority',
    });
    expect(refusal({ count: 2, recipe: 'herd', preempt: false }).message).toBe(
      '--no-preempt applies to the priority recipe only',
    );
    expect(refusal({ count: 2, exec: true, program: ['x'], preempt: false }).message).toBe(
      '--no-preempt applies to the priority recipe only',
    );
  });
});
