import chalk from 'chalk';
import type { CommandModule } from 'yargs';
import { EnvironmentError } from '../../errors.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { labPaths } from '../context.js';

export function doctorCommand(ctx: CommandContext): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'doctor',
    describe: 'Check Java, ZooKeeper, the native client, the lab and its ports; print the fix for each problem',
    handler: async (a) => {
      const { runDoctor } = await import('../../ensemble/doctor.js');
      const checks = await runDoctor(labPaths(a), a['zk-home']);
      for (const c of checks) {
        const mark = c.ok ? chalk.green('✓') : chalk.red('✗');
        ctx.out(`${mark} ${c.name}: ${c.detail}${!c.ok && c.fix ? `\n    fix: ${c.fix}` : ''}`);
      }
      const bad = checks.filter((c) => !c.ok).length;
      if (bad > 0) throw new EnvironmentError(`${bad} problem${bad === 1 ? '' : 's'} found`, 'apply the fixes above and run `zklab doctor` again');
    },
  };
}
