import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../src/cli/context.js';
import { buildParser } from '../../../src/cli/main.js';
import { DrillFileError, parseDrill } from '../../../src/drills/format/schema.js';

/**
 * One table of contender specs, fed to both front ends: `zklab contenders spawn` (its real parser, in this process,
 * on an empty lab) and a drill file's `contenders:` section. Both must take or refuse each spec alike, and refuse it
 * on the same field. The test's own map from flags to fields is the oracle; the product's is not used.
 */
const FLAG_FIELD: Readonly<Record<string, string>> = {
  '<count>': 'count',
  '--recipe': 'recipe',
  '--exec': 'exec',
  '--leader-rule': 'leaderRule',
  '--curator-error-policy': 'curatorErrorPolicy',
  '--session-timeout': 'sessionTimeout',
  '--on-disconnect': 'onDisconnect',
  '--policy': 'policy',
  '--priority': 'priorities',
  '--site': 'sites',
  '--takeover-ms': 'takeoverMs',
  '--watchdog-ms': 'watchdogMs',
  '--no-preempt': 'preempt',
  '--workload': 'workload',
  '--strategy': 'strategy',
  '--status-ttl': 'statusTtl',
  '--hold': 'hold',
  '--think': 'think',
  '--fencing': 'fencing',
  '--path': 'path',
  '--via': 'via',
  '--join-timeout': 'joinTimeout',
  '--probe': 'probe',
  '--probe-interval': 'probeInterval',
};

type Spec = Readonly<Record<string, string | number | boolean | readonly (string | number)[]>>;

/** [what the row shows, the spec, the field it is refused on or null]. */
const TABLE: readonly (readonly [string, Spec, string | null])[] = [
  ['the defaults', { count: 3 }, null],
  ['a count of 200', { count: 200 }, null],
  ['a count of 201', { count: 201 }, 'count'],
  ['a count of 51 (drills once stopped at 50)', { count: 51 }, null],
  ['a count of 0', { count: 0 }, 'count'],
  [
    'takeover 90s (drills once took it, to fail mid-run)',
    { count: 2, recipe: 'priority', takeoverMs: '90s' },
    'takeoverMs',
  ],
  ['takeover 60s', { count: 2, recipe: 'priority', takeoverMs: '60s' }, null],
  ['hold 2h (the CLI alone once capped it)', { count: 2, workload: 'lock', hold: '2h' }, 'hold'],
  ['think 61m', { count: 2, workload: 'lock', think: '61m' }, 'think'],
  ['hold 2 (ms) and think 1s', { count: 2, workload: 'lock', hold: 2, think: '1s' }, null],
  ['session timeout 2s, a duration', { count: 2, sessionTimeout: '2s' }, null],
  ['session timeout that is no duration', { count: 2, sessionTimeout: 'soon' }, 'sessionTimeout'],
  ['watchdog within the takeover', { count: 2, recipe: 'priority', takeoverMs: 500, watchdogMs: 400 }, 'watchdogMs'],
  ['watchdog without the priority recipe', { count: 2, watchdogMs: '5s' }, 'watchdogMs'],
  ['the policy round-robin (drills once lacked it)', { count: 2, recipe: 'priority', policy: 'round-robin' }, null],
  ['two priorities for three', { count: 3, recipe: 'priority', priorities: [5, 3] }, 'priorities'],
  ['a path for an election (drills once refused it)', { count: 2, path: '/db' }, null],
  ['a path that is no path', { count: 2, path: 'db' }, 'path'],
  [
    'a program with a path and a leader rule',
    { count: 2, exec: ['/bin/true'], path: '/ha', leaderRule: 'single-node leader' },
    null,
  ],
  ['a leader rule for a recipe', { count: 2, recipe: 'herd', leaderRule: 'lowest-sequence' }, 'leaderRule'],
  ['an unknown leader rule', { count: 2, exec: ['/bin/true'], leaderRule: 'loudest' }, 'leaderRule'],
  ['a program and a recipe', { count: 2, recipe: 'herd', exec: ['/bin/true'] }, 'exec'],
  ['an unknown recipe', { count: 2, recipe: 'raft' }, 'recipe'],
  ['the lock on priority', { count: 2, workload: 'lock', recipe: 'priority' }, 'recipe'],
  ['fencing without the lock', { count: 2, fencing: 'off' }, 'fencing'],
  [
    'the scheduler with a strategy and a status TTL',
    { count: 2, workload: 'scheduler', strategy: 'random', statusTtl: '10s' },
    null,
  ],
  ['a status TTL of 0', { count: 2, workload: 'scheduler', statusTtl: 0 }, 'statusTtl'],
  ['no pre-emption without the priority recipe', { count: 2, preempt: false }, 'preempt'],
  ['an unknown disconnect mode', { count: 2, onDisconnect: 'panic' }, 'onDisconnect'],
  ['via nothing known', { count: 2, via: 'sideways' }, 'via'],
  ['a join timeout of a minute', { count: 2, exec: ['/bin/true'], joinTimeout: '1m' }, null],
  ['a join timeout of 0', { count: 2, joinTimeout: 0 }, 'joinTimeout'],
  ['a probe with placeholders', { count: 2, exec: ['/bin/true'], probe: ['test', '{id}', '=', 'c{n}'] }, null],
  ['a probe of a recipe, every second', { count: 2, probe: ['true'], probeInterval: '1s' }, null],
  ['a probe with a placeholder it does not know', { count: 2, probe: ['check', '{port}'] }, 'probe'],
  ['an empty probe', { count: 2, probe: [] }, 'probe'],
  ['a probe interval without a probe', { count: 2, probeInterval: '1s' }, 'probeInterval'],
  ['a probe every 10ms', { count: 2, probe: ['true'], probeInterval: '10ms' }, 'probeInterval'],
];

function argv(spec: Spec, lab: string): string[] {
  const out = ['contenders', 'spawn', String(spec.count), '--lab', lab];
  const flagOf = (field: string) => Object.keys(FLAG_FIELD).find((f) => FLAG_FIELD[f] === field)!;
  for (const [field, value] of Object.entries(spec)) {
    if (field === 'count' || field === 'exec') continue;
    if (field === 'preempt') out.push(value ? '--preempt' : '--no-preempt');
    else if (field === 'leaderRule') out.push(flagOf(field), ...String(value).split(' '));
    // A probe is one argument on the command line, split into words as a shell would (a drill gives the list).
    else if (field === 'probe') out.push(flagOf(field), (value as string[]).join(' '));
    else out.push(flagOf(field), Array.isArray(value) ? value.join(',') : String(value));
  }
  if (spec.exec) out.push('--exec', '--', ...(spec.exec as string[]));
  return out;
}

function yamlValue(v: Spec[string]): string {
  if (Array.isArray(v)) return `[${v.map((x) => JSON.stringify(x)).join(', ')}]`;
  return JSON.stringify(v);
}

function drillText(spec: Spec): string {
  const fields = Object.entries(spec).map(([k, v]) => `  ${k}: ${yamlValue(v)}`);
  return ['name: spec-table', 'contenders:', ...fields, 'steps:', '  - sleep: 1ms', ''].join('\n');
}

const labs: string[] = [];
const ctx: CommandContext = {
  signal: new AbortController().signal,
  out: () => undefined,
  err: () => undefined,
  isTTY: false,
};

/** The field `contenders spawn` refuses the spec on, or null when it takes it (and only then finds no ensemble). */
async function cliVerdict(spec: Spec): Promise<string | null> {
  const lab = mkdtempSync(join(tmpdir(), 'zklab-spec-'));
  labs.push(lab);
  try {
    await (await buildParser(argv(spec, lab), ctx)).parseAsync();
  } catch (e) {
    const message = (e as Error).message;
    if (/there is no ensemble in .* to contend on/.test(message)) {
      expect(readdirSync(lab)).toEqual([]);
      return null;
    }
    const flag = /^(<count>|--[a-z-]+):/.exec(message)?.[1];
    if (flag === undefined || FLAG_FIELD[flag] === undefined) throw new Error(`not a spec refusal: ${message}`);
    return FLAG_FIELD[flag]!;
  }
  throw new Error('the spawn went through without an ensemble');
}

/** The first field of the contenders section a drill is refused on, or null when the drill parses. */
function drillVerdict(spec: Spec): string | null {
  try {
    parseDrill(drillText(spec), 'table.yaml');
    return null;
  } catch (e) {
    if (!(e instanceof DrillFileError)) throw e;
    const first = e.issues.find((i) => i.path.startsWith('contenders.'));
    if (!first) throw new Error(`not a contenders refusal: ${e.message}`);
    return first.path.slice('contenders.'.length);
  }
}

afterAll(() => {
  for (const lab of labs) rmSync(lab, { recursive: true, force: true });
});

describe('one contender spec, two front ends', () => {
  it.each(TABLE)('%s: the command line and a drill file agree', async (_, spec, refusedOn) => {
    expect({ cli: await cliVerdict(spec), drill: drillVerdict(spec) }).toEqual({ cli: refusedOn, drill: refusedOn });
  });
});
