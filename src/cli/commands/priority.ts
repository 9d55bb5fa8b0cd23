import type { Argv, CommandModule } from 'yargs';
import { withOptions } from '../options.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { labPaths } from '../context.js';
import { table } from '../views/table.js';
import type { AdminPolicy } from '../../recipes/priority-policy.js';
import type { PriorityView } from '../../contenders/priority-admin.js';
import { znodePathArg } from '../../validate.js';

interface PriorityArgs extends GlobalArgs {
  id?: string;
  priority?: string;
  site?: string;
  path?: string;
  json?: boolean;
}

function describePolicy(p: AdminPolicy): string {
  const sites = p.sites.length > 0 ? `sites ${p.sites.join(' > ')}` : 'no site order';
  const overrides = Object.entries(p.priorities);
  const priorities = overrides.map(([id, n]) => `${id}=${n}`).join(', ');
  return `${sites}; ${overrides.length > 0 ? `priorities ${priorities}` : 'no priority overrides'}`;
}

function renderView(v: PriorityView): string {
  const policy =
    v.version === null
      ? "none written (the elector uses each contender's own priority)"
      : `version ${v.version}: ${describePolicy(v.policy)}`;
  const current = v.current ? `${v.current.holder ?? 'a session of no member'} (${v.current.state})` : 'free';
  const preempt =
    v.preempt === null ? 'no contender running' : v.preempt ? 'pre-emption on' : 'pre-emption off (--no-preempt)';
  const lines = [
    `${v.path}/policy: ${policy}`,
    ...v.problems.map((p) => `  ignored by the elector: ${p}`),
    `elected ${v.elected ?? 'nobody'}; leader/current ${current}; ${preempt}`,
  ];
  if (v.members.length === 0) return [...lines, 'no members'].join('\n');
  const rows = v.members.map((m) => [
    m.id,
    m.site ?? '-',
    String(m.registered),
    m.effective === m.registered ? String(m.effective) : `${m.effective} (policy)`,
  ]);
  return [...lines, table(['member', 'site', 'registered', 'elector uses'], rows)].join('\n');
}

export function priorityCommand(ctx: CommandContext): CommandModule<GlobalArgs, PriorityArgs> {
  const pathOption = {
    type: 'string',
    describe: "the priority election (default: the one the lab's priority contenders use)",
  } as const;
  const path = (a: PriorityArgs) => (a.path === undefined ? {} : { path: znodePathArg(a.path) });
  return {
    command: 'priority',
    describe:
      "The priority election's policy: who should lead, by priority and site (the elector pre-empts to follow it)",
    builder: (y: Argv<GlobalArgs>) =>
      y
        .command({
          command: 'show',
          describe: "The policy znode, each member's priority and site, who is elected and who holds leader/current",
          builder: (b) =>
            withOptions(b, { json: { type: 'boolean', default: false }, path: pathOption }) as Argv<PriorityArgs>,
          handler: async (a) => {
            const { showPriority } = await import('../../contenders/priority-admin.js');
            const v = await showPriority(labPaths(a), path(a));
            ctx.out(a.json ? JSON.stringify(v, null, 2) : renderView(v));
          },
        })
        .command({
          command: 'set <id> <priority>',
          describe: 'Give a running priority contender a priority in the policy (overrides the one it registered)',
          builder: (b) =>
            withOptions(
              b,
              { path: pathOption },
              { id: { type: 'string', demandOption: true }, priority: { type: 'string', demandOption: true } },
            ) as Argv<PriorityArgs>,
          handler: async (a) => {
            const { setPriority } = await import('../../contenders/priority-admin.js');
            const r = await setPriority(labPaths(a), a.id!, String(a.priority), path(a));
            ctx.out(
              `${r.path}/policy: ${describePolicy(r.policy)}\nthe elector elects again; \`zklab priority show\` follows it`,
            );
          },
        })
        .command({
          command: 'prefer-site <site>',
          describe:
            "Put a site first in the policy: its members lead before any other site's (priority and site policies)",
          builder: (b) =>
            withOptions(
              b,
              { path: pathOption },
              { site: { type: 'string', demandOption: true } },
            ) as Argv<PriorityArgs>,
          handler: async (a) => {
            const { preferSiteOf } = await import('../../contenders/priority-admin.js');
            const r = await preferSiteOf(labPaths(a), String(a.site), path(a));
            ctx.out(
              `${r.path}/policy: ${describePolicy(r.policy)}\nthe elector elects again; \`zklab priority show\` follows it`,
            );
          },
        })
        .demandCommand(1, 'name a priority command: show, set or prefer-site'),
    handler: () => undefined,
  };
}
