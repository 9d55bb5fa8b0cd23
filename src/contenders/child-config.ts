import type { RecipeOptions } from '../recipes/types.js';

/** Everything a contender process needs, passed as one JSON argument (an argument array, never a shell string). */
export interface ChildConfig extends RecipeOptions {
  readonly labRoot: string;
  readonly connect: string;
  readonly eventsFile: string;
  readonly memberData: string;
}

export const CONFIG_FLAG = '--config=';

export function encodeChildConfig(c: ChildConfig): string {
  return CONFIG_FLAG + JSON.stringify(c);
}

export function decodeChildConfig(argv: readonly string[]): ChildConfig {
  const arg = argv.find((a) => a.startsWith(CONFIG_FLAG));
  if (!arg) throw new Error(`missing ${CONFIG_FLAG}<json>`);
  return JSON.parse(arg.slice(CONFIG_FLAG.length)) as ChildConfig;
}
