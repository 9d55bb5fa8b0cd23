import type { RecipeOptions } from '../recipes/types.js';

/** Everything a contender process needs, passed as one JSON argument (an argument array, never a shell string). */
export interface ChildConfig extends RecipeOptions {
  readonly labRoot: string;
  readonly connect: string;
  readonly eventsFile: string;
  readonly memberData: string;
}

/** What the supervisor of a program run as a contender needs (src/contenders/exec-child.ts). */
export interface ExecChildConfig {
  readonly id: string;
  readonly labRoot: string;
  readonly eventsFile: string;
  /** What `contenders list` calls it: exec, curator-latch, kazoo-election. */
  readonly kind: string;
  readonly path: string;
  readonly sessionTimeoutMs: number;
  readonly connect: string;
  /** The program and its arguments, placeholders already filled in. */
  readonly command: string;
  readonly args: readonly string[];
  /** Added to the program's environment. */
  readonly env: Readonly<Record<string, string>>;
}

export const CONFIG_FLAG = '--config=';

export function encodeChildConfig(c: ChildConfig | ExecChildConfig): string {
  return CONFIG_FLAG + JSON.stringify(c);
}

export function decodeChildConfig<T = ChildConfig>(argv: readonly string[]): T {
  const arg = argv.find((a) => a.startsWith(CONFIG_FLAG));
  if (!arg) throw new Error(`missing ${CONFIG_FLAG}<json>`);
  return JSON.parse(arg.slice(CONFIG_FLAG.length)) as T;
}
