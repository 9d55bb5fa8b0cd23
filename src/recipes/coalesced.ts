import { setTimeout as sleep } from 'node:timers/promises';

/**
 * One run of `fn` at a time; a request while it runs makes it run once more after. Each run starts `settleMs` after
 * its request, so that a burst of watch notifications costs one listing, not one per change.
 */
export class Coalesced {
  private running = false;
  private again = false;
  constructor(
    private readonly fn: () => Promise<void>,
    private readonly settleMs = 0,
    /** When it says so, no more runs start (a recipe that is stopping). */
    private readonly done: () => boolean = () => false,
  ) {}
  request(): void {
    if (this.done()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void (async () => {
      try {
        do {
          this.again = false;
          if (this.settleMs > 0) await sleep(this.settleMs);
          await this.fn();
        } while (this.again && !this.done());
      } finally {
        this.running = false;
      }
    })();
  }
}
