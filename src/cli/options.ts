import type { Argv, InferredOptionType, Options, PositionalOptions } from 'yargs';

/** A command's options as it declares them, in the order its `--help` lists them. */
export type OptionTable = Readonly<Record<string, Options>>;
export type PositionalTable = Readonly<Record<string, PositionalOptions>>;
/** The arguments a table gives a command, as yargs types them. */
export type ArgsOf<O extends Readonly<Record<string, Options | PositionalOptions>>> = {
  [K in keyof O]: InferredOptionType<O[K]>;
};

/**
 * The names each parser's innermost command declared. yargs builds every command of a command line on the same
 * instance, resetting the options of the one outside before the builder of the next runs: the last builder's are
 * the command's. A builder that declares none leaves the names of the one before it, so a command group declares
 * none of its own.
 */
const declared = new WeakMap<object, readonly string[]>();

/** Adds a command's positionals, then its options, and keeps their names for `declaredOptions`. */
export function withOptions<T, O extends OptionTable, P extends PositionalTable = Record<never, never>>(
  y: Argv<T>,
  options: O,
  positionals?: P,
): Argv<T & ArgsOf<O> & ArgsOf<P>> {
  let built = y;
  for (const [name, p] of Object.entries(positionals ?? {})) built = built.positional(name, p);
  declared.set(built, [...Object.keys(positionals ?? {}), ...Object.keys(options)]);
  return built.options(options) as Argv<T & ArgsOf<O> & ArgsOf<P>>;
}

/** What the command being parsed declared with `withOptions`: the words a mistyped option may have meant. */
export function declaredOptions(parser: object): readonly string[] {
  return declared.get(parser) ?? [];
}
