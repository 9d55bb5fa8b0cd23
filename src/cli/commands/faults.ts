import type { Argv, CommandModule } from 'yargs';
import { UsageError } from '../../errors.js';
import { plural } from '../../text.js';
import { requireState } from '../../lab/state.js';
import { withOptions } from '../options.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { labPaths } from '../context.js';
import type { Target } from '../../faults/aim.js';
import { hitWords } from '../../faults/hit.js';
import { kill } from '../../faults/kinds/kill.js';
import { pause as pauseKind } from '../../faults/kinds/pause.js';
import { FAULT_SCOPES, type FaultScope, isFaultScope, SCOPE_WORDS } from '../../faults/scope.js';

interface TargetArgs extends GlobalArgs {
  target: string;
  name?: string;
  signal?: string;
  scope?: string;
}

const TARGETS = 'server zkN, zk-leader, leader, contender cN';

function parseSignal(s: string | undefined): 'SIGKILL' | 'SIGTERM' {
  const v = (s ?? 'KILL').toUpperCase().replace(/^SIG/, '');
  if (v === 'KILL') return 'SIGKILL';
  if (v === 'TERM') return 'SIGTERM';
  throw new UsageError(
    `--signal must be KILL or TERM, got "${s}"`,
    'KILL leaves the session to expire; TERM closes it at once',
  );
}

function parseScope(s: string | undefined): FaultScope {
  if (s === undefined) return 'node';
  if (isFaultScope(s)) return s;
  throw new UsageError(`--scope must be ${FAULT_SCOPES.join(' or ')}, got "${s}"`, `--scope ${SCOPE_WORDS}`);
}

const scopeOption = { type: 'string', describe: `what it acts on: ${SCOPE_WORDS}` } as const;

function needName(a: TargetArgs, verb: string, what: 'server' | 'contender'): string {
  if (!a.name)
    throw new UsageError(
      `name the ${what}: \`zklab ${verb} ${what} ${what === 'server' ? 'zk1' : 'c1'}\``,
      `targets: ${TARGETS}`,
    );
  return a.name;
}

/** `server zkN` and `contender cN` name a member of that kind; `leader` and `zk-leader` are resolved when the fault runs. */
function targetOf(a: TargetArgs, verb: string): Target {
  switch (a.target) {
    case 'server':
      return { name: needName(a, verb, 'server'), kind: 'server' };
    case 'contender':
      return { name: needName(a, verb, 'contender'), kind: 'contender' };
    case 'leader':
    case 'zk-leader':
      return a.target;
    case 'paused':
      if (verb === 'resume') return a.target;
      throw new UsageError('`paused` is a target of resume only', `targets: ${TARGETS}`);
    default:
      throw new UsageError(`unknown ${verb} target "${a.target}"`, `targets: ${TARGETS}`);
  }
}

export function killCommand(ctx: CommandContext): CommandModule<GlobalArgs, TargetArgs> {
  return {
    command: 'kill <target> [name]',
    describe: kill.description,
    builder: (y: Argv<GlobalArgs>) =>
      withOptions(
        y,
        { signal: { type: 'string', describe: 'KILL (default) or TERM' }, scope: scopeOption },
        {
          target: { type: 'string', demandOption: true, describe: 'server, zk-leader, leader or contender' },
          name: { type: 'string', describe: 'zkN for server, cN for contender' },
        },
      ) as Argv<TargetArgs>,
    handler: async (a) => {
      const { applyKill } = await import('../../faults/kinds/kill.js');
      const paths = labPaths(a);
      const sig = parseSignal(a.signal);
      const scope = parseScope(a.scope);
      const target = targetOf(a, 'kill');
      requireState(paths);
      const hit = await applyKill(paths, target, sig, scope);
      const { pid, left } = hit;
      if (hit.target.kind === 'server') {
        const { name } = hit.target;
        ctx.out(
          a.target === 'zk-leader'
            ? `killed ${name}, the leading server (pid ${pid}), with ${sig}`
            : `killed ${name} (pid ${pid}) with ${sig}`,
        );
        return;
      }
      const who = a.target === 'leader' ? ", the leader by ZooKeeper's own state," : '';
      const session = sig === 'SIGKILL' ? 'its session lingers until it expires' : 'its session is closed';
      if (scope === 'process') {
        // Refused unless the program runs: its pid is the one signalled.
        const rest = left > 0 ? `its node holds ${plural(left, 'process', 'processes')} still` : 'nothing else ran';
        ctx.out(`killed ${hit.target.name}'s program (pid ${pid})${who} with ${sig}; ${session}; ${rest}`);
        return;
      }
      ctx.out(`killed ${hitWords(hit)}${who} with ${sig}; ${session}`);
    },
  };
}

export function pauseCommand(ctx: CommandContext, pause: boolean): CommandModule<GlobalArgs, TargetArgs> {
  const verb = pause ? 'pause' : 'resume';
  return {
    command: `${verb} <target> [name]`,
    describe: pause ? pauseKind.description : pauseKind.liftDescription,
    builder: (y: Argv<GlobalArgs>) =>
      withOptions(y, pause ? { scope: scopeOption } : {}, {
        target: { type: 'string', demandOption: true },
        name: { type: 'string' },
      }) as Argv<TargetArgs>,
    handler: async (a) => {
      const { freeze, pausedMembers } = await import('../../faults/kinds/pause.js');
      const paths = labPaths(a);
      const target = targetOf(a, verb);
      requireState(paths);
      if (target === 'paused') {
        const paused = await pausedMembers(paths);
        if (paused.length === 0) throw new UsageError('nothing in this lab is paused', 'see `zklab contenders list`');
        for (const m of paused) ctx.out(`resumed ${hitWords(await freeze(paths, m, false))}`);
        return;
      }
      const scope = parseScope(a.scope);
      const hit = await freeze(paths, target, pause, { scope });
      // A program stopped alone is refused unless it runs: its pid is the one signalled.
      const what = scope === 'process' ? `${hit.target.name}'s program (pid ${hit.pid})` : hitWords(hit);
      ctx.out(`${pause ? 'paused' : 'resumed'} ${what}`);
    },
  };
}
