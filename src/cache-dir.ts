import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * Where zklab keeps what it builds once per machine (class-data archives, the Curator adapter, the clock shim):
 * `$XDG_CACHE_HOME/zklab/<name>`, else `~/.cache/zklab/<name>`. A relative XDG_CACHE_HOME is ignored, as the XDG
 * spec says.
 */
export function cacheDir(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
  home: string = env.HOME || homedir(),
): string {
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.cache'), 'zklab', name);
}
