import { createReadStream, existsSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { UsageError } from '../errors.js';
import type { LabPaths } from './paths.js';
import { requireState } from './state.js';

/** The log file of a lab member, or a UsageError listing the names that exist. */
export function logFileFor(paths: LabPaths, name: string): string {
  const state = requireState(paths);
  const names = [...state.servers.map((s) => s.name), ...state.contenders.map((c) => c.id), 'net'];
  if (!names.includes(name)) {
    throw new UsageError(`there is no "${name}" in this lab`, `logs exist for ${names.join(', ')}`);
  }
  const file =
    name === 'net'
      ? paths.netLog
      : state.servers.some((s) => s.name === name)
        ? paths.serverLog(name)
        : paths.contenderLog(name);
  if (!existsSync(file))
    throw new UsageError(`${name} has no log yet (${file})`, 'it has not been started in this lab');
  return file;
}

/** Streams what is appended to `file` until the signal aborts. Polls the size every 200 ms (logs may be rewritten). */
export async function followLog(file: string, write: (chunk: string) => void, signal: AbortSignal): Promise<void> {
  let offset = statSync(file).size;
  while (!signal.aborted) {
    try {
      await sleep(200, undefined, { signal });
    } catch {
      return;
    }
    const size = existsSync(file) ? statSync(file).size : 0;
    if (size < offset) offset = 0;
    if (size === offset) continue;
    await new Promise<void>((resolve) => {
      const s = createReadStream(file, { start: offset, end: size - 1, encoding: 'utf8' });
      s.on('data', (c) => write(String(c)));
      s.on('close', () => resolve());
    });
    offset = size;
  }
}
