/**
 * The one way a word reaches a remote shell. `ssh host ARGS…` joins its arguments with spaces and the remote login
 * shell parses the line again, so every word is quoted here: a word of safe characters as it is, anything else in
 * single quotes, with each single quote written as '\'' (close, an escaped quote, reopen). Nothing inside single
 * quotes is special to a POSIX shell, so no word can expand, split or end the command.
 */
const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function shellQuote(word: string): string {
  if (word.includes('\0')) throw new Error('a NUL byte cannot pass through a shell command line');
  if (SAFE.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A command line for a remote shell: each word quoted (shellQuote), joined by spaces. */
export function shellCommand(argv: readonly string[]): string {
  if (argv.length === 0) throw new Error('an empty command');
  return argv.map(shellQuote).join(' ');
}
