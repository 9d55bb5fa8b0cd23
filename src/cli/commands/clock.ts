import type { Argv, CommandModule } from 'yargs';
import { UsageError } from '../../errors.js';
import { requireState } from '../../lab/state.js';
import { applyClock, type ClockChange, clock } from '../../faults/kinds/clock/clock.js';
import { parseOffset, parseRate } from '../../faults/kinds/clock/clock-args.js';
import { withOptions } from '../options.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { labPaths } from '../context.js';
import { renderClockList } from '../views/clock.js';

const TARGETS = 'zkN, cN, leader or zk-leader';

/** An argument's validator answer, or the one line that refuses it (exit 2) before the lab is read. */
function valid<T>(what: string, r: T | { error: string }, example: string): T {
  if (typeof r === 'object' && r !== null && 'error' in r) throw new UsageError(`${what}: ${r.error}`, example);
  return r as T;
}

export function clockCommand(ctx: CommandContext): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'clock',
    describe: clock.description,
    builder: (y: Argv<GlobalArgs>) =>
      y
        .command<GlobalArgs & { target: string; offset: string }>({
          command: 'skew <target> <offset>',
          describe: "From now on the node's wall clock reads true time + offset (a jump), at the rate it had",
          builder: (b) =>
            withOptions(
              b,
              {},
              {
                target: { type: 'string', demandOption: true, describe: TARGETS },
                offset: { type: 'string', demandOption: true, describe: '+30s, -2m, 1h, -500ms (at most a year)' },
              },
            )
              .example('$0 clock skew zk1 +1h', "zk1's clock jumps an hour ahead")
              .example('$0 clock skew leader -30s', "the leading contender's clock jumps 30 s back"),
          handler: async (a) => {
            const { ms } = valid('<offset>', parseOffset(a.offset), 'e.g. `zklab clock skew zk1 +30s`');
            await change(ctx, a, a.target, { kind: 'skew', offsetMs: ms });
          },
        })
        .command<GlobalArgs & { target: string; rate: string }>({
          command: 'drift <target> <rate>',
          describe: "From now on the node's wall clock advances at rate from where it is (no jump)",
          builder: (b) =>
            withOptions(
              b,
              {},
              {
                target: { type: 'string', demandOption: true, describe: TARGETS },
                rate: {
                  type: 'string',
                  demandOption: true,
                  describe: '1.5 runs 50 % fast, 0.5 half speed (0 < rate ≤ 100)',
                },
              },
            ).example('$0 clock drift c2 1.5', "c2's clock runs 50 % fast from now on"),
          handler: async (a) => {
            const { rate } = valid('<rate>', parseRate(a.rate), 'e.g. `zklab clock drift c2 1.5`');
            await change(ctx, a, a.target, { kind: 'drift', rate });
          },
        })
        .command<GlobalArgs & { target: string }>({
          command: 'reset <target>',
          describe: "The node's wall clock reads true time again; all resets every faked one",
          builder: (b) =>
            withOptions(b, {}, { target: { type: 'string', demandOption: true, describe: `${TARGETS}, or all` } })
              .example('$0 clock reset zk1', '')
              .example('$0 clock reset all', ''),
          handler: async (a) => {
            const done = await change(ctx, a, a.target, { kind: 'reset' });
            if (done === 0) ctx.out('no clock was faked');
          },
        })
        .command<GlobalArgs & { json: boolean }>({
          command: 'list',
          describe: 'The nodes whose clock is faked: how far off it reads now, its rate, and since when',
          builder: (b) => withOptions(b, { json: { type: 'boolean', default: false, describe: 'as JSON' } }),
          handler: async (a) => {
            const { clockList } = await import('../../faults/kinds/clock/node-clocks.js');
            const rows = clockList(labPaths(a));
            if (a.json) {
              ctx.out(JSON.stringify(rows));
              return;
            }
            ctx.out(renderClockList(rows, Date.now()));
          },
        })
        .demandCommand(1, 'name a clock command: skew, drift, reset or list'),
    handler: () => undefined,
  };
}

async function change(ctx: CommandContext, a: GlobalArgs, target: string, what: ClockChange): Promise<number> {
  const paths = labPaths(a);
  requireState(paths);
  const done = await applyClock(paths, target, what);
  for (const d of done) ctx.out(d.description);
  return done.length;
}
