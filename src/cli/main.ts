import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../templates.js';
import type { Argv, CommandModule } from 'yargs';
import type yargsFactory from 'yargs';
import type { CommandContext, GlobalArgs } from './context.js';
import { declaredOptions, type OptionTable } from './options.js';
import { maskNegatives, subcommandNames, unmask, usageFailure } from './usage.js';

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
  { names: ['clock'], load: async (ctx) => [(await import('./commands/clock.js')).clockCommand(ctx)] },
  { names: ['failpoint'], load: async (ctx) => [(await import('./commands/failpoint.js')).failpointCommand(ctx)] },
  { names: ['priority'], load: async (ctx) => [(await import('./commands/priority.js')).priorityCommand(ctx)] },
  { names: ['inspect'], load: async (ctx) => [(await import('./commands/inspect.js')).inspectCommand(ctx)] },
  { names: ['audit'], load: async (ctx) => [(await import('./commands/audit.js')).auditCommand(ctx)] },
  { names: ['drill'], load: async (ctx) => [(await import('./commands/drill.js')).drillCommand(ctx)] },
  { names: ['demo'], load: async (ctx) => [(await import('./commands/demo.js')).demoCommand(ctx)] },
  { names: ['hosts'], load: async (ctx) => [(await import('./commands/hosts.js')).hostsCommand(ctx)] },
  { names: ['labs'], load: async (ctx) => [(await import('./commands/labs.js')).labsCommand(ctx)] },
  { names: ['logs'], load: async (ctx) => [(await import('./commands/logs.js')).logsCommand(ctx)] },
  { names: ['config'], load: async (ctx) => [(await import('./commands/config.js')).configCommand(ctx)] },
  { names: ['doctor'], load: async (ctx) => [(await import('./commands/doctor.js')).doctorCommand(ctx)] },
  { names: ['completion'], load: async (ctx) => [(await import('./commands/completion.js')).completionCommand(ctx)] },
];

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
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
      throw usageFailure(msg, argv, {
        commands: COMMANDS.flatMap((c) => c.names),
        subcommands,
        options: [...Object.keys(GLOBAL_OPTIONS), 'help', 'version', ...declaredOptions(parser)],
      });
    })
    .exitProcess(false) as Argv<GlobalArgs>;
  const named = COMMANDS.find((c) => c.names.includes(argv[0] ?? ''));
  const subcommands = new Map<string, readonly string[]>();
  for (const defs of await Promise.all((named ? [named] : COMMANDS).map((c) => c.load(ctx)))) {
    for (const c of defs) {
      parser = parser.command(c);
      const name = String(c.command).split(' ')[0]!;
      subcommands.set(name, subcommandNames(c));
    }
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
  // Commands that start nodes prepare them for the fault kinds that ask (a clock fault's library): loaded beside the
  // command, not by every command.
  const kinds = startsNodes(argv) ? import('../faults/kinds/registry.js') : undefined;
  const parser = await buildParser(argv, ctx);
  (await kinds)?.installNodeStart();
  await parser.parseAsync();
}

/** The command groups whose commands may start a lab's nodes (servers, contenders). */
const STARTS_NODES: readonly string[] = ['ensemble', 'contenders', 'drill', 'demo', 'audit'];

/**
 * Whether a command line may start nodes. The command need not come first (`zklab --lab DIR ensemble up`); a
 * program's own words after -- never count.
 */
export function startsNodes(argv: readonly string[]): boolean {
  const words = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  return words.some((w) => STARTS_NODES.includes(w));
}
