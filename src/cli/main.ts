import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../templates.js';
import type { Argv, CommandModule } from 'yargs';
import type yargsFactory from 'yargs';
import { UsageError } from '../errors.js';
import type { CommandContext, GlobalArgs } from './context.js';
import { declaredOptions, type OptionTable } from './options.js';

// yargs' CommonJS build: its ESM build lays help out with cliui's ESM fallback, which breaks lines mid-word
// and wraps a usage text of several lines to the width left beside its longest line.
const yargs = createRequire(import.meta.url)('yargs') as typeof yargsFactory;

// biome-ignore lint/suspicious/noExplicitAny: each command declares its own arguments; the list holds them all
type Commands = CommandModule<GlobalArgs, any>[];

/**
 * Every command, from one explicit list: the names it answers to and how to load its definition. A command line
 * that starts with a command's name loads that module alone; anything else (help, completion, a typo) loads them all.
 */
export const COMMANDS: readonly {
  readonly names: readonly string[];
  readonly load: (ctx: CommandContext) => Promise<Commands>;
}[] = [
  { names: ['ensemble'], load: async (ctx) => [(await import('./commands/ensemble.js')).ensembleCommand(ctx)] },
  { names: ['contenders'], load: async (ctx) => [(await import('./commands/contenders.js')).contendersCommand(ctx)] },
  { names: ['jobs'], load: async (ctx) => [(await import('./commands/jobs.js')).jobsCommand(ctx)] },
  {
    names: ['kill', 'pause', 'resume'],
    load: async (ctx) => {
      const m = await import('./commands/faults.js');
      return [m.killCommand(ctx), m.pauseCommand(ctx, true), m.pauseCommand(ctx, false)];
    },
  },
  {
    names: ['partition', 'heal'],
    load: async (ctx) => {
      const m = await import('./commands/partition.js');
      return [m.partitionCommand(ctx), m.healCommand(ctx)];
    },
  },
  { names: ['net'], load: async (ctx) => [(await import('./commands/net.js')).netCommand(ctx)] },
  { names: ['failpoint'], load: async (ctx) => [(await import('./commands/failpoint.js')).failpointCommand(ctx)] },
  { names: ['priority'], load: async (ctx) => [(await import('./commands/priority.js')).priorityCommand(ctx)] },
  { names: ['inspect'], load: async (ctx) => [(await import('./commands/inspect.js')).inspectCommand(ctx)] },
  { names: ['drill'], load: async (ctx) => [(await import('./commands/drill.js')).drillCommand(ctx)] },
  { names: ['demo'], load: async (ctx) => [(await import('./commands/demo.js')).demoCommand(ctx)] },
  { names: ['labs'], load: async (ctx) => [(await import('./commands/labs.js')).labsCommand(ctx)] },
  { names: ['logs'], load: async (ctx) => [(await import('./commands/logs.js')).logsCommand(ctx)] },
  { names: ['config'], load: async (ctx) => [(await import('./commands/config.js')).configCommand(ctx)] },
  { names: ['doctor'], load: async (ctx) => [(await import('./commands/doctor.js')).doctorCommand(ctx)] },
  { names: ['completion'], load: async (ctx) => [(await import('./commands/completion.js')).completionCommand(ctx)] },
];

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Edits (insert, delete, replace) between two words. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    }
    row = next;
  }
  return row[b.length]!;
}

/** The option a mistyped one most likely meant: one it begins, or one a couple of letters away. */
export function closestOption(word: string, options: readonly string[]): string | undefined {
  const scored = options
    .map((o) => ({ o, d: o.startsWith(word) || word.startsWith(o) ? 0.5 : editDistance(word, o) }))
    .filter((x) => x.d <= 2)
    .sort((a, b) => a.d - b.d);
  return scored[0]?.o;
}

/**
 * yargs reads a word of a dash and a digit as short options (`-5ms` is -5 -m -s) unless it is a bare number, so a
 * negative duration or list (`-5ms`, `-2,3`) would fail as a missing argument or as unknown options. Such a word
 * goes through the parser masked, as a value, and is unmasked before any command sees it: the command's own check
 * then says what is wrong with it (or takes it: a sum job's `--args -2,3`). What follows `--` is a program's own.
 * NUL cannot occur in an argument, so the mask is never the user's.
 */
const MASK = '\u0000';

export function maskNegatives(argv: readonly string[]): string[] {
  const end = argv.indexOf('--');
  return argv.map((w, i) => ((end === -1 || i < end) && /^-[\d.]/.test(w) ? MASK + w : w));
}

const unmask = (v: unknown): unknown =>
  typeof v === 'string' ? v.replaceAll(MASK, '') : Array.isArray(v) ? v.map(unmask) : v;

/** yargs' own refusals, worded as zklab's: what was wrong, and where the help for it is. */
function usageFailure(msg: string | undefined, argv: readonly string[], options: readonly string[]): UsageError {
  const text = unmask(msg ?? 'invalid command line') as string;
  const at = argv.findIndex((w) => COMMANDS.some((c) => c.names.includes(w)));
  const group = at === -1 ? undefined : argv[at];
  // The word after the command is its subcommand unless it is an option (`heal --lab DIR` has none).
  const sub = at === -1 || argv[at + 1]?.startsWith('-') ? undefined : argv[at + 1];
  const helpOf = (cmd: string) => `\`zklab ${cmd} --help\``;
  const unknown = /^Unknown arguments?: ([^,]+)/.exec(text)?.[1];
  if (unknown !== undefined) {
    const meant = closestOption(unknown, options);
    const where = group
      ? `${helpOf([group, sub].filter(Boolean).join(' '))} lists its options`
      : '`zklab --help` lists the commands';
    return new UsageError(text, meant ? `did you mean --${meant}? ${where}` : where);
  }
  if (/^Not enough non-option arguments/.test(text) && group) {
    return new UsageError(`\`zklab ${group}\` is missing an argument`, `${helpOf(group)} shows what it takes`);
  }
  return new UsageError(text, group ? `${helpOf(group)} describes each` : '`zklab --help` lists the commands');
}

/** Options every command accepts (`GlobalArgs`). */
const GLOBAL_OPTIONS = {
  lab: { type: 'string', global: true, describe: 'lab directory (default .zklab, or ZKLAB_LAB)' },
  'zk-home': {
    type: 'string',
    global: true,
    describe: 'ZooKeeper install (default ZOOKEEPER_HOME, then Debian paths)',
  },
  verbose: { type: 'boolean', global: true, default: false, describe: 'show stacks of unexpected failures' },
} as const satisfies OptionTable;

export async function buildParser(argv: readonly string[], ctx: CommandContext): Promise<Argv<GlobalArgs>> {
  let parser = yargs(maskNegatives(argv))
    .scriptName('zklab')
    // `contenders spawn --exec -- PROGRAM ARGS…`: what follows -- is the program's, never zklab's options.
    .parserConfiguration({ 'populate--': true })
    .middleware((args) => {
      for (const key of Object.keys(args)) if (key !== '--') args[key] = unmask(args[key]);
    }, true)
    .usage(
      'zklab: a ZooKeeper lab on one machine. Real ensembles, election contenders, real faults.\n\nUsage: $0 <command> [options]',
    )
    .options(GLOBAL_OPTIONS)
    .strict()
    .recommendCommands()
    .demandCommand(1, 'name a command; `zklab --help` lists them')
    .help()
    .alias('help', 'h')
    .version('version', 'print the version', packageVersion())
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((msg, err) => {
      if (err) throw err;
      throw usageFailure(msg, argv, [...Object.keys(GLOBAL_OPTIONS), 'help', 'version', ...declaredOptions(parser)]);
    })
    .exitProcess(false) as Argv<GlobalArgs>;
  const named = COMMANDS.find((c) => c.names.includes(argv[0] ?? ''));
  for (const defs of await Promise.all((named ? [named] : COMMANDS).map((c) => c.load(ctx)))) {
    for (const c of defs) parser = parser.command(c);
  }
  return parser;
}

/** Runs one zklab command line. Never exits the process: errors propagate to the caller (bin/zklab.js). */
export async function main(argv: readonly string[], signal: AbortSignal): Promise<void> {
  const ctx: CommandContext = {
    signal,
    out: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
    isTTY: Boolean(process.stdout.isTTY),
  };
  await (await buildParser(argv, ctx)).parseAsync();
}
