import type { CommandModule } from 'yargs';
import { UsageError } from '../errors.js';

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

/** The word a mistyped one most likely meant (an option, a command): one it begins, or one a couple of letters away. */
export function closestWord(word: string, words: readonly string[]): string | undefined {
  const scored = words
    .map((o) => ({ o, d: o.startsWith(word) || word.startsWith(o) ? 0.5 : editDistance(word, o) }))
    .filter((x) => x.d <= 2)
    .sort((a, b) => a.d - b.d);
  return scored[0]?.o;
}

const firstWord = (command: unknown): string | undefined =>
  (Array.isArray(command) ? String(command[0]) : typeof command === 'string' ? command : undefined)?.split(' ')[0];

/**
 * The names of a command group's subcommands (`ensemble` → up, status, down, …), read by running its builder on a
 * stand-in that records each `.command(…)` and takes every other call: the builders declare, they do not act.
 */
export function subcommandNames(group: { readonly builder?: unknown }): string[] {
  const names: string[] = [];
  const recorder: object = new Proxy(
    {},
    {
      get: (_, key) =>
        key === 'command'
          ? (def: unknown) => {
              const name = firstWord(typeof def === 'object' && def !== null ? (def as CommandModule).command : def);
              if (name !== undefined && name !== '$0') names.push(name);
              return recorder;
            }
          : () => recorder,
    },
  );
  if (typeof group.builder === 'function') (group.builder as (y: object) => unknown)(recorder);
  return names;
}

export interface CommandLineWords {
  /** Every top-level command's name. */
  readonly commands: readonly string[];
  /** The subcommands of the command groups the parser was given, by group name. */
  readonly subcommands: ReadonlyMap<string, readonly string[]>;
  /** The options of the command being parsed, for a mistyped one. */
  readonly options: readonly string[];
}

const helpOf = (cmd: string) => `\`zklab ${cmd} --help\``;
const listed = (words: readonly string[]) =>
  words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;

/** yargs' own refusals, worded as zklab's: what was wrong, what was most likely meant, and where the help for it is. */
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

export const unmask = (v: unknown): unknown =>
  typeof v === 'string' ? v.replaceAll(MASK, '') : Array.isArray(v) ? v.map(unmask) : v;

export function usageFailure(msg: string | undefined, argv: readonly string[], words: CommandLineWords): UsageError {
  const text = unmask(msg ?? 'invalid command line') as string;
  const at = argv.findIndex((w) => words.commands.includes(w));
  const group = at === -1 ? undefined : argv[at]!;
  // The word after a command group is its subcommand unless it is an option (`labs --json` runs the group's own).
  const subs = group === undefined ? [] : (words.subcommands.get(group) ?? []);
  const next = at === -1 || argv[at + 1]?.startsWith('-') ? undefined : argv[at + 1];
  if (group !== undefined && next !== undefined && subs.length > 0 && !subs.includes(next)) {
    const meant = closestWord(next, subs);
    return new UsageError(
      `\`zklab ${group}\` has no command "${next}"`,
      meant
        ? `did you mean \`zklab ${group} ${meant}\`? ${helpOf(group)} lists its commands`
        : `its commands are ${listed(subs)}; ${helpOf(group)} describes each`,
    );
  }
  if (
    group === undefined &&
    argv[0] !== undefined &&
    !argv[0].startsWith('-') &&
    /^(Did you mean|Unknown)/.test(text)
  ) {
    const meant = closestWord(argv[0], words.commands);
    return new UsageError(
      `zklab has no command "${argv[0]}"`,
      `${meant ? `did you mean \`zklab ${meant}\`? ` : ''}\`zklab --help\` lists the commands`,
    );
  }
  const command = [group, next !== undefined && subs.includes(next) ? next : undefined].filter(Boolean).join(' ');
  const unknown = /^Unknown arguments?: ([^,]+)/.exec(text)?.[1];
  if (unknown !== undefined) {
    const meant = closestWord(unknown, words.options);
    const where = group ? `${helpOf(command)} lists its options` : '`zklab --help` lists the commands';
    return new UsageError(text, meant ? `did you mean --${meant}? ${where}` : where);
  }
  if (/^Not enough non-option arguments/.test(text) && group) {
    return new UsageError(`\`zklab ${command}\` is missing an argument`, `${helpOf(command)} shows what it takes`);
  }
  return new UsageError(text, group ? `${helpOf(group)} describes each` : '`zklab --help` lists the commands');
}
