import { TEXT_COLUMNS } from '../../text.js';
import type { Argv, CommandModule } from 'yargs';
import { runInspect } from '../../inspect/entry.js';
import { resolveInspectTarget } from '../../inspect/target.js';
import { withOptions } from '../options.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { labPaths } from '../context.js';

interface InspectArgs extends GlobalArgs {
  path?: string;
  connect?: string;
  once?: boolean;
  json?: boolean;
}

export function inspectCommand(ctx: CommandContext): CommandModule<GlobalArgs, InspectArgs> {
  return {
    command: 'inspect',
    describe: 'Watch an election live: znodes, who leads, who watches whom, the ensemble, events; keys to break it',
    builder: (y: Argv<GlobalArgs>) =>
      withOptions(y, {
        path: {
          type: 'string',
          describe:
            "election path, a scheduler's root or a lock (default: the newest contender's path or scheduler root, else /election)",
        },
        connect: {
          type: 'string',
          describe: "HOST:PORT,… of any ensemble, instead of (or besides) the lab's",
        },
        once: {
          type: 'boolean',
          default: false,
          describe: 'print the view as plain text once and exit (the default without a terminal)',
        },
        json: {
          type: 'boolean',
          default: false,
          describe: 'print one snapshot as JSON and exit',
        },
      }) as Argv<InspectArgs>,
    handler: async (a) => {
      const target = resolveInspectTarget({ paths: labPaths(a), path: a.path, connect: a.connect });
      // Keys need a terminal on stdin as well; without one, a single snapshot is what the view can give.
      const live = !a.once && !a.json && ctx.isTTY && Boolean(process.stdin.isTTY);
      const mode = a.json ? 'json' : live ? 'live' : 'once';
      await runInspect({
        target,
        mode,
        signal: ctx.signal,
        out: ctx.out,
        width: process.stdout.columns || TEXT_COLUMNS,
      });
    },
  };
}
