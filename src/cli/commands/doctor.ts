import chalk from 'chalk';
import type { CommandModule } from 'yargs';
import { EnvironmentError } from '../../errors.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { labPaths } from '../context.js';

export function doctorCommand(ctx: CommandContext): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'doctor',
    describe:
      'Check Java, ZooKeeper, the native client, the lab and its ports, the Curator and kazoo adapters and what ' +
      'fault kinds need; print the fix for each problem',
    handler: async (a) => {
      const { nodeNetworkChecks, runDoctor } = await import('../../ensemble/doctor.js');
      const { adapterChecks } = await import('../../contenders/adapters/availability.js');
      const { kindChecks } = await import('../../faults/kinds/registry.js');
      const checks = await runDoctor(labPaths(a), a['zk-home']);
      // Optional: without Curator or kazoo everything else still works; doctor says how to get them.
      const optional = [...(await adapterChecks()), ...nodeNetworkChecks(), ...kindChecks()];
      for (const c of checks) {
        const mark = c.ok ? chalk.green('✓') : chalk.red('✗');
        ctx.out(`${mark} ${c.name}: ${c.detail}${!c.ok && c.fix ? `\n    fix: ${c.fix}` : ''}`);
      }
      ctx.out('contenders from other clients, the node network and fault kinds (optional):');
      for (const c of optional) {
        const mark = c.ok ? chalk.green('✓') : chalk.yellow('–');
        ctx.out(`${mark} ${c.name}: ${c.detail}${!c.ok && c.fix ? `\n    to get it: ${c.fix}` : ''}`);
      }
      const bad = checks.filter((c) => !c.ok).length;
      if (bad > 0)
        throw new EnvironmentError(
          `${bad} problem${bad === 1 ? '' : 's'} found`,
          'apply the fixes above and run `zklab doctor` again',
        );
    },
  };
}
