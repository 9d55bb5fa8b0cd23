import { resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { DEMO_LAB_DIR } from '../../demo/demo-lab.js';
import { LabPaths } from '../../lab/paths.js';
import type { CommandContext, GlobalArgs } from '../context.js';

export function demoCommand(ctx: CommandContext): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'demo',
    describe:
      'See it work: a 3-server ensemble, 5 contenders, the leader killed and the failover measured; cleans up after itself',
    builder: (y: Argv<GlobalArgs>) => y,
    handler: async (a) => {
      // Its own lab (not .zklab, nor ZKLAB_LAB): the demo removes it when it ends.
      const paths = new LabPaths(resolve(a.lab ?? DEMO_LAB_DIR));
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
