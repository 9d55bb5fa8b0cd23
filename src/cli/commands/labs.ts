import type { Argv, CommandModule } from 'yargs';
import { formatDuration } from '../../duration.js';
import type { LabListing } from '../../ensemble/labs.js';
import { table } from '../views/table.js';
import type { CommandContext, GlobalArgs } from '../context.js';

function owner(l: LabListing): string {
  if (!l.owner) return '-';
  return `${l.owner.pid}${l.owner.alive ? '' : ' (gone)'}`;
}

const count = (c: { running: number; total: number }): string => (c.total === 0 ? '-' : `${c.running}/${c.total}`);

export function renderLabs(labs: readonly LabListing[]): string {
  if (labs.length === 0) return 'no labs on this machine (`zklab ensemble up` makes one)';
  const rows = labs.map((l) => [
    l.root,
    l.kind,
    l.reason ? `${l.status}: ${l.reason}` : l.status,
    owner(l),
    count(l.servers),
    count(l.contenders),
    l.clientPorts.length === 0 ? '-' : l.clientPorts.join(','),
    formatDuration(l.ageMs, 0),
    l.command,
  ]);
  const table_ = table(
    ['LAB', 'KIND', 'STATUS', 'OWNER', 'SERVERS', 'CONTENDERS', 'CLIENT PORTS', 'AGE', 'MADE BY'],
    rows,
  );
  const prunable = labs.filter((l) => l.status === 'orphan' || l.status === 'stale').length;
  return prunable === 0 ? table_ : `${table_}\n${prunable} lab(s) can go: \`zklab labs prune\``;
}

export function labsCommand(ctx: CommandContext): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'labs',
    describe: 'Every lab on this machine: long-lived ones and those owned by a running drill, demo or test',
    builder: (y: Argv<GlobalArgs>) =>
      y
        .command<GlobalArgs & { json?: boolean }>({
          command: '$0',
          describe: 'List them: kind, status, owner, servers and contenders running, client ports, age',
          builder: (b) => b.option('json', { type: 'boolean', default: false, describe: 'print JSON' }),
          handler: async (a) => {
            const { listLabs } = await import('../../ensemble/labs.js');
            const labs = listLabs();
            ctx.out(a.json ? JSON.stringify(labs, null, 2) : renderLabs(labs));
          },
        })
        .command<GlobalArgs>({
          command: 'prune',
          describe: 'Stop and remove the labs whose owner or directory is gone (orphan or stale)',
          handler: async () => {
            const { pruneLabs } = await import('../../ensemble/labs.js');
            const pruned = await pruneLabs();
            ctx.out(
              pruned.length === 0
                ? 'nothing to prune: every listed lab has its owner and its directory'
                : pruned.map((l) => `pruned ${l.root} (${l.status}: ${l.reason})`).join('\n'),
            );
          },
        })
        .command<GlobalArgs & { target: string }>({
          command: 'down <target>',
          describe: 'Stop one lab (its directory) or every listed lab (all)',
          builder: (b) =>
            b.positional('target', { type: 'string', demandOption: true, describe: 'a lab directory, or all' }) as Argv<
              GlobalArgs & { target: string }
            >,
          handler: async (a) => {
            const { labsDown } = await import('../../ensemble/labs.js');
            const roots = await labsDown(a.target);
            ctx.out(roots.length === 0 ? 'no labs to stop' : roots.map((r) => `stopped ${r}`).join('\n'));
          },
        }),
    handler: () => undefined,
  };
}
