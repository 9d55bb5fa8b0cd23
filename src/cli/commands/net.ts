import type { Argv, CommandModule } from 'yargs';
import { UsageError } from '../../errors.js';
import { MAX_DELAY_MS } from '../../net/partition.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { labPaths } from '../context.js';

interface DelayArgs extends GlobalArgs {
  target: string;
  ms: string;
  jitter?: string;
}

/** Milliseconds as typed; the service checks the range. */
function msArg(what: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^-?\d+(\.\d+)?$/.test(String(text).trim())) {
    throw new UsageError(
      `${what} must be a number of milliseconds from 0 to ${MAX_DELAY_MS}, got "${text}"`,
      'e.g. `zklab net delay c1 300 --jitter 50`',
    );
  }
  return Number(text);
}

export function netCommand(ctx: CommandContext): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'net',
    describe: 'Slow down the links of a lab member (latency and jitter)',
    builder: (y: Argv<GlobalArgs>) =>
      y
        .command<DelayArgs>({
          command: 'delay <target> <ms>',
          describe:
            'Add <ms> of round-trip latency to every link of a member (zkN, cN, leader, zk-leader); 0 removes it',
          builder: (b) =>
            b
              .positional('target', { type: 'string', demandOption: true })
              .positional('ms', { type: 'string', demandOption: true, describe: 'milliseconds, 0 to 60000' })
              .option('jitter', {
                type: 'string',
                describe: 'up to this many ms more, at random (default 0)',
              }) as Argv<DelayArgs>,
          handler: async (a) => {
            const { delay } = await import('../../faults/service.js');
            const r = await delay(
              labPaths(a),
              a.target,
              msArg('the delay', a.ms, Number.NaN),
              msArg('the jitter', a.jitter, 0),
            );
            ctx.out(`${r.description}; \`zklab net clear ${r.member}\` removes it`);
          },
        })
        .command<GlobalArgs & { target?: string }>({
          command: 'clear [target]',
          describe: 'Remove the delay of a member, or every delay',
          builder: (b) => b.positional('target', { type: 'string', describe: 'a member; every delay when left out' }),
          handler: async (a) => {
            const { clearDelay } = await import('../../faults/service.js');
            const r = await clearDelay(labPaths(a), a.target);
            ctx.out(
              r.cleared.length === 0
                ? `no delay to clear${a.target ? ` on ${a.target}` : ''}`
                : `cleared: ${r.cleared.join('; ')}`,
            );
          },
        })
        .demandCommand(1, 'name a net command: delay or clear'),
    handler: () => undefined,
  };
}
