import { createRequire } from 'node:module';
import type { Argv, CommandModule } from 'yargs';
import type yargsFactory from 'yargs';
import { UsageError } from '../errors.js';
import type { CommandContext, GlobalArgs } from './context.js';
import { configCommand } from './commands/config.js';
import { doctorCommand } from './commands/doctor.js';
import { ensembleCommand } from './commands/ensemble.js';
import { killCommand, pauseCommand } from './commands/faults.js';
import { logsCommand } from './commands/logs.js';
import { contendersCommand } from './commands/contenders.js';
import { healCommand, partitionCommand } from './commands/partition.js';
import { netCommand } from './commands/net.js';
import { inspectCommand } from './commands/inspect.js';
import { drillCommand } from './commands/drill.js';
import { demoCommand } from './commands/demo.js';
import { labsCommand } from './commands/labs.js';
import { jobsCommand } from './commands/jobs.js';
import { failpointCommand } from './commands/failpoint.js';
import { priorityCommand } from './commands/priority.js';
import { completionCommand } from './commands/completion.js';

// yargs' CommonJS build: its ESM build lays help out with cliui's ESM fallback, which breaks lines mid-word
// and wraps a usage text of several lines to the width left beside its longest line.
const yargs = createRequire(import.meta.url)('yargs') as typeof yargsFactory;

/** Every command, registered from one explicit list. */
function commands(ctx: CommandContext): CommandModule<GlobalArgs, any>[] {
  return [
    ensembleCommand(ctx),
    contendersCommand(ctx),
    jobsCommand(ctx),
    killCommand(ctx),
    pauseCommand(ctx, true),
    pauseCommand(ctx, false),
    partitionCommand(ctx),
    healCommand(ctx),
    netCommand(ctx),
    failpointCommand(ctx),
    priorityCommand(ctx),
    inspectCommand(ctx),
    drillCommand(ctx),
    demoCommand(ctx),
    labsCommand(ctx),
    logsCommand(ctx),
    configCommand(ctx),
    doctorCommand(ctx),
    completionCommand(),
  ];
}

export function buildParser(argv: readonly string[], ctx: CommandContext): Argv<GlobalArgs> {
  let parser = yargs([...argv])
    .scriptName('zklab')
    // `contenders spawn --exec -- PROGRAM ARGS…`: what follows -- is the program's, never zklab's options.
    .parserConfiguration({ 'populate--': true })
    .usage('zklab: a ZooKeeper lab on one machine. Real ensembles, election contenders, real faults.\n\nUsage: $0 <command> [options]')
    .option('lab', { type: 'string', global: true, describe: 'lab directory (default .zklab, or ZKLAB_LAB)' })
    .option('zk-home', { type: 'string', global: true, describe: 'ZooKeeper install (default ZOOKEEPER_HOME, then Debian paths)' })
    .option('verbose', { type: 'boolean', global: true, default: false, describe: 'show stacks of unexpected failures' })
    .strict()
    .recommendCommands()
    .demandCommand(1, 'name a command; `zklab --help` lists them')
    .help()
    .alias('help', 'h')
    .version(false)
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((msg, err) => {
      if (err) throw err;
      throw new UsageError(msg ?? 'invalid command line', 'see `zklab --help`');
    })
    .exitProcess(false) as Argv<GlobalArgs>;
  for (const c of commands(ctx)) parser = parser.command(c);
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
  await buildParser(argv, ctx).parseAsync();
}
