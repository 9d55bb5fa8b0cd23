import type { Argv, Options } from 'yargs';
import { CONTENDER_FIELDS, type ContenderField, flagOf } from '../contenders/fields.js';
import {
  type ContenderSpec,
  type ContenderSpecInput,
  checkContenderSpec,
  SPEC_FIELDS,
  type SpecField,
  type SpecIssue,
  wordRefs,
} from '../contenders/spec.js';
import { UsageError } from '../errors.js';
import { type OptionTable, withOptions } from './options.js';

type Fields = typeof CONTENDER_FIELDS;
type FlagValue<F extends ContenderField> = F extends { type: 'boolean' }
  ? boolean
  : F extends { type: 'array' }
    ? readonly string[]
    : string;

/** The arguments of a command that takes a contender spec (`contenders spawn`), as yargs hands them over. */
export type SpawnFlags = {
  readonly [K in Exclude<SpecField, 'count'> as Fields[K]['option']]?: FlagValue<Fields[K]>;
} & {
  readonly count: unknown;
  /** What follows `--`: the program, with `--exec`. */
  readonly '--'?: readonly (string | number)[];
};

/** The order `contenders spawn --help` lists the fields in (the table's is the order its problems are told in). */
export const SPAWN_HELP_ORDER: readonly SpecField[] = [
  'count',
  'recipe',
  'exec',
  'leaderRule',
  'curatorErrorPolicy',
  'sessionTimeout',
  'path',
  'priorities',
  'sites',
  'policy',
  'takeoverMs',
  'watchdogMs',
  'preempt',
  'onDisconnect',
  'connect',
  'via',
  'workload',
  'strategy',
  'statusTtl',
  'hold',
  'think',
  'fencing',
  'joinTimeout',
  'probe',
  'probeInterval',
];

function yargsOption({ type, help }: ContenderField): Options {
  return type === 'array' ? { type, string: true, describe: help } : { type: type ?? 'string', describe: help };
}

/**
 * Adds the contender spec's fields to a command: `<count>` as its positional (the command names it), the rest as
 * options, then `extra`, the command's own. `leave`: fields the command sets itself (`audit` its `--members`).
 */
export function withContenderOptions<T>(
  y: Argv<T>,
  extra: OptionTable = {},
  leave: readonly SpecField[] = [],
): Argv<T & SpawnFlags> {
  const options = SPAWN_HELP_ORDER.filter((f) => f !== 'count' && !leave.includes(f)).map(
    (f): ContenderField => CONTENDER_FIELDS[f],
  );
  const own = { ...Object.fromEntries(options.map((f) => [f.option, yargsOption(f)])), ...extra };
  const count = { count: { type: 'string', describe: CONTENDER_FIELDS.count.help } } as const;
  return withOptions(y, own, leave.includes('count') ? {} : count) as Argv<T & SpawnFlags>;
}

const EXEC_EXAMPLE = 'e.g. `zklab contenders spawn 3 --exec -- python3 my_contender.py {connect}`';

/** A field as the command line names it: `--recipe`, or `--recipe priority` with a value. */
function flagWords(field: SpecField, value?: string): string {
  const flag = flagOf(field);
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
  const flags: Readonly<Record<string, unknown>> = a;
  if (!flags.exec && program.length > 0) {
    throw new UsageError(`"${program.join(' ')}" after -- is only read with --exec`, EXEC_EXAMPLE);
  }
  const given = SPEC_FIELDS.map((f) => [
    f,
    f === 'exec' ? (flags.exec ? program : undefined) : flags[CONTENDER_FIELDS[f].option],
  ]);
  return Object.fromEntries(given.filter(([, v]) => v !== undefined));
}

/** The checked spec of a command line, or its first problem as a UsageError (one line, exit 2). */
export function spawnSpec(a: SpawnFlags): ContenderSpec {
  return checkedSpec(specInput(a));
}

/** A spec's values checked, or its first problem as the command line words it (a UsageError: one line, exit 2). */
export function checkedSpec(input: ContenderSpecInput): ContenderSpec {
  const r = checkContenderSpec(input);
  if (r.issues) throw spawnUsageError(r.issues[0]!);
  return r.spec;
}
