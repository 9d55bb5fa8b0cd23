import type { Argv, CommandModule } from 'yargs';
import { UsageError } from '../../errors.js';
import { requireState } from '../../lab/state.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { labPaths } from '../context.js';

interface TargetArgs extends GlobalArgs {
  target: string;
  name?: string;
  signal?: string;
}

const TARGETS = 'server zkN, zk-leader, leader, contender cN';

function parseSignal(s: string | undefined): 'SIGKILL' | 'SIGTERM' {
  const v = (s ?? 'KILL').toUpperCase().replace(/^SIG/, '');
  if (v === 'KILL') return 'SIGKILL';
  if (v === 'TERM') return 'SIGTERM';
  throw new UsageError(`--signal must be KILL or TERM, got "${s}"`, 'KILL leaves the session to expire; TERM closes it at once');
}

function needName(a: TargetArgs, verb: string, what: 'server' | 'contender'): string {
  if (!a.name) throw new UsageError(`name the ${what}: \`zklab ${verb} ${what} ${what === 'server' ? 'zk1' : 'c1'}\``, `targets: ${TARGETS}`);
  return a.name;
}

export function killCommand(ctx: CommandContext): CommandModule<GlobalArgs, TargetArgs> {
  return {
    command: 'kill <target> [name]',
    describe: `Kill a process of the lab: ${TARGETS}`,
    builder: (y: Argv<GlobalArgs>) =>
      y
        .positional('target', { type: 'string', demandOption: true, describe: 'server, zk-leader, leader or contender' })
        .positional('name', { type: 'string', describe: 'zkN for server, cN for contender' })
        .option('signal', { type: 'string', describe: 'KILL (default) or TERM' }) as Argv<TargetArgs>,
    handler: async (a) => {
      const { killServer, zkLeader } = await import('../../ensemble/server-faults.js');
      const { contenderFaults } = await import('../../contenders/faults.js');
      const paths = labPaths(a);
      const sig = parseSignal(a.signal);
      if (!['server', 'zk-leader', 'leader', 'contender'].includes(a.target)) throw new UsageError(`unknown kill target "${a.target}"`, `targets: ${TARGETS}`);
      requireState(paths);
      switch (a.target) {
        case 'server': {
          const r = await killServer(paths, needName(a, 'kill', 'server'), sig);
          ctx.out(`killed ${r.server} (pid ${r.pid}) with ${sig}`);
          return;
        }
        case 'zk-leader': {
          const leader = await zkLeader(paths);
          const r = await killServer(paths, leader.name, sig);
          ctx.out(`killed ${r.server}, the leading server (pid ${r.pid}), with ${sig}`);
          return;
        }
        case 'leader':
        case 'contender': {
          const r = await contenderFaults.kill(paths, a.target === 'leader' ? 'leader' : needName(a, 'kill', 'contender'), sig);
          ctx.out(`killed ${r.id}${a.target === 'leader' ? ', the leader by ZooKeeper\'s own state,' : ''} (pid ${r.pid}) with ${sig}${sig === 'SIGKILL' ? '; its session lingers until it expires' : '; its session is closed'}`);
          return;
        }
        default:
          throw new UsageError(`unknown kill target "${a.target}"`, `targets: ${TARGETS}`);
      }
    },
  };
}

export function pauseCommand(ctx: CommandContext, pause: boolean): CommandModule<GlobalArgs, TargetArgs> {
  const verb = pause ? 'pause' : 'resume';
  return {
    command: `${verb} <target> [name]`,
    describe: pause ? 'Freeze a process with SIGSTOP (server zkN, zk-leader, leader, contender cN)' : 'Thaw a frozen process with SIGCONT',
    builder: (y: Argv<GlobalArgs>) =>
      y.positional('target', { type: 'string', demandOption: true }).positional('name', { type: 'string' }) as Argv<TargetArgs>,
    handler: async (a) => {
      const { pauseServer, zkLeader } = await import('../../ensemble/server-faults.js');
      const { contenderFaults } = await import('../../contenders/faults.js');
      const paths = labPaths(a);
      if (!['server', 'zk-leader', 'leader', 'contender'].includes(a.target)) throw new UsageError(`unknown ${verb} target "${a.target}"`, `targets: ${TARGETS}`);
      requireState(paths);
      switch (a.target) {
        case 'server':
        case 'zk-leader': {
          const name = a.target === 'server' ? needName(a, verb, 'server') : (await zkLeader(paths)).name;
          const r = await pauseServer(paths, name, pause);
          ctx.out(`${pause ? 'paused' : 'resumed'} ${r.server} (pid ${r.pid})`);
          return;
        }
        case 'leader':
        case 'contender': {
          const r = await contenderFaults.pause(paths, a.target === 'leader' ? 'leader' : needName(a, verb, 'contender'), pause);
          ctx.out(`${pause ? 'paused' : 'resumed'} ${r.id} (pid ${r.pid})`);
          return;
        }
        default:
          throw new UsageError(`unknown ${verb} target "${a.target}"`, `targets: ${TARGETS}`);
      }
    },
  };
}
