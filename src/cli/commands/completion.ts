import { basename } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import type { CommandContext, GlobalArgs } from '../context.js';

/**
 * fish gets a script of zklab's own (yargs writes bash and zsh only): it asks zklab for the words that may follow
 * the command line so far, as the bash and zsh scripts do.
 */
const FISH_SCRIPT = `###-begin-zklab-completions-###
# zklab completion for fish: zklab completion > ~/.config/fish/completions/zklab.fish
function __zklab_yargs_completions
    zklab --get-yargs-completions (commandline -opc) (commandline -ct)
end
complete -c zklab -f -a '(__zklab_yargs_completions)'
###-end-zklab-completions-###`;

/**
 * `zklab completion`: a completion script for bash, zsh (yargs') or fish (zklab's), by $SHELL. The script asks
 * `zklab --get-yargs-completions <words>`, which yargs answers from the same parser before any command runs.
 * A command of its own rather than yargs' `.completion()`, whose command prints the script before `.strict()` has
 * checked the rest of the line (`zklab completion extra` printed a script, then failed).
 */
export function completionCommand(ctx: CommandContext): CommandModule<GlobalArgs, GlobalArgs> {
  let parser: Argv<GlobalArgs> | undefined;
  return {
    command: 'completion',
    describe: 'Print a completion script for your shell (bash, zsh or fish): `zklab completion >> ~/.bashrc`',
    builder: (y: Argv<GlobalArgs>) => (parser = y),
    handler: () => {
      if (basename(process.env.SHELL ?? '') === 'fish') ctx.out(FISH_SCRIPT);
      else parser?.showCompletionScript();
    },
  };
}
