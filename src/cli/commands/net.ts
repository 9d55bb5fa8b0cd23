import type { Argv, CommandModule } from 'yargs';
import { durationArg } from '../../validate.js';
import { MAX_DELAY_MS } from '../../net/partition.js';
import { applyDelay, clearDelay, delay } from '../../faults/kinds/delay.js';
import { applyLoss, loss, lossPercentArg } from '../../faults/kinds/loss.js';
import { withOptions } from '../options.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { labPaths } from '../context.js';

interface DelayArgs extends GlobalArgs {
  target: string;
  ms: string;
  jitter?: string;
}

const DELAY_EXAMPLE = 'e.g. `zklab net delay c1 300ms --jitter 50ms`';

/** A delay or jitter as typed: `150ms`, `1s`, or a bare number of milliseconds. */
function msArg(what: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  return durationArg(text, what, { min: 0, max: MAX_DELAY_MS }, DELAY_EXAMPLE);
}

export function netCommand(ctx: CommandContext): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'net',
    describe: 'Slow down the links of a lab member (latency and jitter), or lose some of its packets',
    builder: (y: Argv<GlobalArgs>) =>
      y
        .command<DelayArgs>({
          command: 'delay <target> <ms>',
          describe: delay.description,
          builder: (b) =>
            withOptions(
              b,
              {
                jitter: {
                  type: 'string',
                  describe: 'up to this much more, at random (default 0)',
                },
              },
              {
                target: { type: 'string', demandOption: true },
                ms: {
                  type: 'string',
                  demandOption: true,
                  describe: 'a duration, 0 to 60s: 300ms, 1s or 300',
                },
              },
            ) as Argv<DelayArgs>,
          handler: async (a) => {
            const r = await applyDelay(
              labPaths(a),
              a.target,
              msArg('<ms>', a.ms, Number.NaN),
              msArg('--jitter', a.jitter, 0),
            );
            ctx.out(`${r.description}; \`zklab net clear ${r.member}\` removes it`);
          },
        })
        .command<GlobalArgs & { target: string; percent: string }>({
          command: 'loss <target> <percent>',
          describe: loss.description,
          builder: (b) =>
            withOptions(
              b,
              {},
              {
                target: { type: 'string', demandOption: true },
                percent: { type: 'string', demandOption: true, describe: '0 to 100; 0 ends it' },
              },
            ),
          handler: async (a) => {
            const r = await applyLoss(labPaths(a), a.target, lossPercentArg(a.percent));
            ctx.out(`${r.description}; \`zklab net clear ${r.member}\` ends it`);
          },
        })
        .command<GlobalArgs & { target?: string }>({
          command: 'clear [target]',
          describe: delay.liftDescription,
          builder: (b) =>
            withOptions(b, {}, { target: { type: 'string', describe: 'a member; every one when left out' } }),
          handler: async (a) => {
            const r = await clearDelay(labPaths(a), a.target);
            ctx.out(
              r.cleared.length === 0
                ? `no delay or loss to clear${a.target ? ` on ${a.target}` : ''}`
                : `cleared: ${r.cleared.join('; ')}`,
            );
          },
        })
        .demandCommand(1, 'name a net command: delay, loss or clear'),
    handler: () => undefined,
  };
}
