import type { Argv, CommandModule } from 'yargs';
import type { GlobalArgs } from '../context.js';

/**
 * `zklab completion`: yargs' completion script (bash; zsh or fish when $SHELL is one). The script asks
 * `zklab --get-yargs-completions <words>`, which yargs answers from the same parser before any command runs.
 * A command of its own rather than yargs' `.completion()`, whose command prints the script before `.strict()` has
 * checked the rest of the line (`zklab completion extra` printed a script, then failed).
 */
export function completionCommand(): CommandModule<GlobalArgs, GlobalArgs> {
  let parser: Argv<GlobalArgs> | undefined;
  return {
    command: 'completion',
    describe: 'Print a shell completion script: `zklab completion >> ~/.bashrc`',
    builder: (y: Argv<GlobalArgs>) => (parser = y),
    handler: () => {
      parser?.showCompletionScript();
    },
  };
}
