import type { Argv, CommandModule } from 'yargs';
import { DEMO_LAB_DIR, DemoLab } from '../../demo/demo-lab.js';
import { namedLabDir } from '../../lab/paths.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { withOptions } from '../options.js';

export function demoCommand(ctx: CommandContext): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'demo',
    describe:
      'See it work: a 3-server ensemble, 5 contenders, the leader killed and the failover measured; cleans up after itself',
    builder: (y: Argv<GlobalArgs>) =>
      withOptions(y, {
        lab: {
          type: 'string',
          describe:
            "where the demo's lab goes (or ZKLAB_LAB): DIR itself if it does not exist yet, else a new directory " +
            `under it; default ${DEMO_LAB_DIR}. Removed when the demo ends`,
        },
      }),
    handler: async (a) => {
      // A lab of its own, which the demo removes when it ends: never a lab or files that were there before.
      const paths = DemoLab.place(namedLabDir(a.lab) ?? DEMO_LAB_DIR);
      // The live view needs keys, so a terminal on both ends; CI runs the plain version to completion by itself.
      const live = ctx.isTTY && Boolean(process.stdin.isTTY) && !process.env.CI;
      const { runDemo } = await import('../../demo/run-demo.js');
      await runDemo({
        paths,
        live,
        signal: ctx.signal,
        out: ctx.out,
        width: Math.min(process.stdout.columns || 100, 140),
        ...(a['zk-home'] ? { zkHome: a['zk-home'] } : {}),
      });
    },
  };
}
