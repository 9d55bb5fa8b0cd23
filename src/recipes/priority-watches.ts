import type { WatchEvent, Watcher } from '../zk/port.js';
import type { RecipeIO } from './types.js';

export type WatchKind = 'exists' | 'data' | 'children';

/**
 * One-shot watches, armed at most once per key until they fire, so re-evaluating does not stack callbacks.
 * The native client also calls every armed watcher with session events on each disconnect and reconnect (type
 * 'notwatching' here) without disarming it; those are not firings and are ignored.
 */
export class WatchSet {
  private readonly armed = new Set<string>();
  private generation = 0;

  constructor(
    private readonly io: RecipeIO,
    private readonly onFire: (event: WatchEvent) => void,
  ) {}

  /** Forgets every watch (a new session starts with none). */
  reset(): void {
    this.armed.clear();
    this.generation++;
  }

  isArmed(kind: WatchKind, path: string): boolean {
    return this.armed.has(`${kind}:${path}`);
  }

  /** Calls `read` with a watcher if none is armed for (kind, path), without one otherwise. */
  async read<T>(kind: WatchKind, path: string, read: (watcher: Watcher | undefined) => Promise<T>): Promise<T> {
    const key = `${kind}:${path}`;
    if (this.armed.has(key)) return read(undefined);
    const generation = this.generation;
    const result = await read((event) => {
      if (event.type === 'notwatching' || generation !== this.generation) return;
      this.armed.delete(key);
      this.io.log('notified', { path: event.path, type: event.type });
      this.onFire(event);
    });
    if (generation === this.generation) {
      this.armed.add(key);
      this.io.log('watching', { path, kind });
    }
    return result;
  }
}
