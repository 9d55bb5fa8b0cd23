import {
  type ContenderSpec,
  type ContenderSpecInput,
  checkContenderSpec,
  type SpecField,
  type SpecIssue,
  wordRefs,
} from '../contenders/spec.js';
import { UsageError } from '../errors.js';

/** The flag of each field of a contender spec on `contenders spawn`. */
export const SPAWN_FLAGS: Readonly<Record<SpecField, string>> = {
  count: '<count>',
  recipe: '--recipe',
  exec: '--exec',
  leaderRule: '--leader-rule',
  curatorErrorPolicy: '--curator-error-policy',
  sessionTimeout: '--session-timeout',
  onDisconnect: '--on-disconnect',
  policy: '--policy',
  priorities: '--priority',
  sites: '--site',
  takeoverMs: '--takeover-ms',
  watchdogMs: '--watchdog-ms',
  preempt: '--no-preempt',
  workload: '--workload',
  strategy: '--strategy',
  statusTtl: '--status-ttl',
  hold: '--hold',
  think: '--think',
  fencing: '--fencing',
  path: '--path',
  via: '--via',
  connect: '--connect',
  joinTimeout: '--join-timeout',
  probe: '--probe',
  probeInterval: '--probe-interval',
};

/** The arguments of `contenders spawn` as yargs hands them over. */
export interface SpawnFlags {
  readonly count: unknown;
  readonly recipe?: string;
  readonly 'session-timeout'?: string;
  readonly path?: string;
  readonly priority?: string;
  readonly site?: string;
  readonly policy?: string;
  readonly 'takeover-ms'?: string;
  readonly 'watchdog-ms'?: string;
  readonly preempt?: boolean;
  readonly 'on-disconnect'?: string;
  readonly connect?: string;
  readonly via?: string;
  readonly exec?: boolean;
  readonly 'leader-rule'?: readonly string[];
  readonly 'curator-error-policy'?: string;
  readonly workload?: string;
  readonly strategy?: string;
  readonly 'status-ttl'?: string;
  readonly hold?: string;
  readonly think?: string;
  readonly fencing?: string;
  readonly 'join-timeout'?: string;
  readonly probe?: string;
  readonly 'probe-interval'?: string;
  readonly '--'?: readonly (string | number)[];
}

const EXEC_EXAMPLE = 'e.g. `zklab contenders spawn 3 --exec -- python3 my_contender.py {connect}`';

/** A field as the command line names it: `--recipe`, or `--recipe priority` with a value. */
function flagWords(field: SpecField, value?: string): string {
  const flag = SPAWN_FLAGS[field];
  if (value === undefined) return flag;
  return field === 'exec' ? `--exec -- ${value}` : `${flag} ${value}`;
}

/** One problem of a spec as the command line words it. */
export function spawnUsageError(issue: SpecIssue): UsageError {
  return new UsageError(
    `${flagWords(issue.field)}: ${wordRefs(issue.message, flagWords)}`,
    wordRefs(issue.hint, flagWords),
  );
}

/** The spec a command line gives; what follows `--` is the program only with `--exec`. */
export function specInput(a: SpawnFlags): ContenderSpecInput {
  const program = a['--']?.map(String) ?? [];
  if (!a.exec && program.length > 0) {
    throw new UsageError(`"${program.join(' ')}" after -- is only read with --exec`, EXEC_EXAMPLE);
  }
  return {
    count: a.count,
    recipe: a.recipe,
    ...(a.exec ? { exec: program } : {}),
    leaderRule: a['leader-rule'],
    curatorErrorPolicy: a['curator-error-policy'],
    sessionTimeout: a['session-timeout'],
    onDisconnect: a['on-disconnect'],
    policy: a.policy,
    priorities: a.priority,
    sites: a.site,
    takeoverMs: a['takeover-ms'],
    watchdogMs: a['watchdog-ms'],
    preempt: a.preempt,
    workload: a.workload,
    strategy: a.strategy,
    statusTtl: a['status-ttl'],
    hold: a.hold,
    think: a.think,
    fencing: a.fencing,
    path: a.path,
    via: a.via,
    connect: a.connect,
    joinTimeout: a['join-timeout'],
    probe: a.probe,
    probeInterval: a['probe-interval'],
  };
}

/** The checked spec of a command line, or its first problem as a UsageError (one line, exit 2). */
export function spawnSpec(a: SpawnFlags): ContenderSpec {
  const r = checkContenderSpec(specInput(a));
  if (r.issues) throw spawnUsageError(r.issues[0]!);
  return r.spec;
}
