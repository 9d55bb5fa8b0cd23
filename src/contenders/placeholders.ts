/**
 * The placeholders of a contender's program and probe arguments: `{connect}`, `{id}` (c3), `{n}` (3: handy for a
 * port per member), `{addr}` (its node's address: on the node network its own, else 127.0.0.1), `{path}` and
 * `{session}` (the session timeout in ms), filled in per contender at its spawn.
 */
export const CONTENDER_PLACEHOLDERS = ['connect', 'id', 'n', 'addr', 'path', 'session'] as const;
export type Placeholder = (typeof CONTENDER_PLACEHOLDERS)[number];
/**
 * The same for every contender of a spawn, program and probe commands included: `{programs}` (the folder of the
 * example programs zklab ships, templates/programs) and `{python}` (the Python that imports kazoo, found as for the
 * kazoo contender). Filled in once, before the commands are looked for (program.ts).
 */
export const SPAWN_PLACEHOLDERS = ['programs', 'python'] as const;
export const PLACEHOLDERS = [...CONTENDER_PLACEHOLDERS, ...SPAWN_PLACEHOLDERS] as const;
/** Every placeholder as a program or probe writes it, for help texts: "{connect} {id} {n} …". */
export const PLACEHOLDER_WORDS = PLACEHOLDERS.map((p) => `{${p}}`).join(' ');

export interface PlaceholderValues {
  readonly connect: string;
  readonly id: string;
  readonly addr: string;
  readonly path: string;
  readonly sessionTimeoutMs: number;
}

const KNOWN = new RegExp(`\\{(${CONTENDER_PLACEHOLDERS.join('|')})\\}`, 'g');

/** The contender's number: c12 → 12. */
export const contenderNumber = (id: string): string => id.replace(/^\D*/, '');

/** Each argument with the placeholders it holds filled in; other braces stay as they are. */
export function fillPlaceholders(args: readonly string[], c: PlaceholderValues): string[] {
  const values: Record<Placeholder, string> = {
    connect: c.connect,
    id: c.id,
    n: contenderNumber(c.id),
    addr: c.addr,
    path: c.path,
    session: String(c.sessionTimeoutMs),
  };
  return args.map((a) => a.replace(KNOWN, (_, k: Placeholder) => values[k]));
}

/** The `{word}` placeholders in the arguments that are none of PLACEHOLDERS (`{ID}`, `{port}`), each once. */
export function unknownPlaceholders(args: readonly string[]): string[] {
  const found = args.flatMap((a) => [...a.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!));
  return [...new Set(found.filter((w) => !(PLACEHOLDERS as readonly string[]).includes(w)))].map((w) => `{${w}}`);
}
