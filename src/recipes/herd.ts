import type { ElectionRecipe } from './base.js';
import { basename } from '../zk/paths.js';
import { PredecessorElection } from './predecessor.js';

/**
 * The naive variant: the same znodes, but every follower watches the parent's children and re-reads the whole
 * list on every change. Each death (or join) wakes every follower: the herd effect.
 */
export class HerdElection extends PredecessorElection {
  private parentWatchArmed = false;

  protected override async joinElection(): Promise<void> {
    this.parentWatchArmed = false;
    await super.joinElection();
  }

  protected override async waitFor(predecessor: string): Promise<void> {
    if (!this.parentWatchArmed) {
      this.parentWatchArmed = true;
      const children = await this.zk.getChildren(this.opts.path, (ev) => {
        this.parentWatchArmed = false;
        this.io.log('notified', { path: ev.path, type: ev.type });
        this.schedule();
      });
      this.io.log('watching', { path: this.opts.path, kind: 'children' });
      if (!children.includes(basename(predecessor))) {
        // Gone between the listing and the watch, which is armed after the change it would have reported: look again.
        this.schedule();
        return;
      }
    }
    await this.follow({ predecessor });
  }
}

export type { ElectionRecipe };
