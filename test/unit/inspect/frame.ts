import { stripVTControlCharacters } from 'node:util';

/** A rendered frame without colour codes, times and ages, so assertions hold in any timezone and at any moment. */
export function plain(frame: string | undefined): string {
  return stripVTControlCharacters(frame ?? '');
}

export function masked(frame: string | undefined): string {
  return plain(frame)
    .replace(/\d{2}:\d{2}:\d{2}\.\d{3}/g, '--:--:--.---')
    .replace(/\b\d+(?:\.\d)?(?:ms|s)\b|\b\d+m\d{2}s\b|\b\d+h\d{2}m\b/g, '<age>');
}

export function lines(frame: string | undefined): string[] {
  return plain(frame).split('\n');
}

/** The one line containing text; fails the test when there is none or several. */
export function lineWith(frame: string | undefined, text: string): string {
  const found = lines(frame).filter((l) => l.includes(text));
  if (found.length !== 1)
    throw new Error(`expected one line with ${JSON.stringify(text)}, found ${found.length}:\n${plain(frame)}`);
  return found[0]!;
}

export function lineStarting(frame: string | undefined, prefix: string): string {
  const found = lines(frame).filter((l) => l.startsWith(prefix));
  if (found.length !== 1)
    throw new Error(`expected one line starting ${JSON.stringify(prefix)}, found ${found.length}:\n${plain(frame)}`);
  return found[0]!;
}
