import type { SessionState } from '../zk/port.js';

/**
 * active: holds the leader znode. inactive: someone else does (or nobody yet). paused: disconnected, so it does
 * not know; it returns to active only if the re-check after reconnecting finds the znode still its own.
 */
export type SingleFileState = 'active' | 'inactive' | 'paused';

/** Tracks the state and reports each change once, with where it came from. */
export class SingleFileStates {
  private state: SingleFileState | null = null;
  private disconnected = false;

  constructor(
    private readonly report: (fields: {
      state: SingleFileState;
      from: SingleFileState | null;
      reason?: string;
    }) => void,
    /** With --on-disconnect ignore a leader keeps acting through a disconnect, so it is not paused either. */
    private readonly pauseOnDisconnect: boolean,
  ) {}

  get current(): SingleFileState | null {
    return this.state;
  }

  /** The outcome of an evaluation. While paused and still disconnected, it cannot change anything. */
  decided(won: boolean): void {
    if (this.disconnected && this.pauseOnDisconnect) return;
    this.enter(won ? 'active' : 'inactive');
  }

  connection(s: SessionState): void {
    if (s === 'connecting') {
      this.disconnected = true;
      if (this.pauseOnDisconnect && this.state !== null) this.enter('paused', 'disconnected');
    } else if (s === 'connected') {
      // The session survived; the re-evaluation that follows decides between active and inactive.
      this.disconnected = false;
    } else {
      this.disconnected = false;
      if (this.state !== null) this.enter('inactive', 'expired');
    }
  }

  /** The runtime stopped acting because the process was frozen; the next evaluation decides again. */
  stalled(): void {
    if (this.state === 'active') this.enter('paused', 'stalled');
  }

  private enter(to: SingleFileState, reason?: string): void {
    if (to === this.state) return;
    const from = this.state;
    this.state = to;
    this.report(reason ? { state: to, from, reason } : { state: to, from });
  }
}
