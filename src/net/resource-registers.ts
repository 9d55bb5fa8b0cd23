import { readLabEvents, recordLabEvent } from '../lab/event-log.js';
import {
  applyRead,
  applyWrite,
  emptyResource,
  replayResources,
  type ResourceState,
  type ResourceWrite,
  type WriteOutcome,
} from '../lab/fenced-resource.js';
import type { LabPaths } from '../lab/paths.js';
import { InvalidRequestError } from './link-table.js';

/**
 * The lock workload's protected resources as the link daemon serves them. Every decision goes to the lab's event
 * log before it is answered, so the log is the resource's own history (what fencedWrites judges), and a daemon
 * started again picks up where the last one stopped.
 */
export class ResourceRegisters {
  private readonly registers: Map<string, ResourceState>;

  constructor(private readonly paths: LabPaths) {
    this.registers = replayResources(readLabEvents(paths.labEventsFile));
  }

  /** `reset` starts the register afresh: its tokens are czxids of an ensemble whose data may since have been wiped. */
  configure(name: string, fencing: boolean, reset: boolean): ResourceState {
    const was = this.registers.get(name);
    const next = was && !reset ? { ...was, fencing } : emptyResource(name, fencing);
    this.registers.set(name, next);
    recordLabEvent(this.paths, 'resource-configured', { resource: name, fencing, reset });
    return next;
  }

  read(name: string, holder: string, token: number): ResourceState {
    const was = this.known(name);
    const next = applyRead(was, token);
    if (next !== was) {
      this.registers.set(name, next);
      recordLabEvent(this.paths, 'resource-read', { resource: name, holder, token, lastToken: was.token });
    }
    return next;
  }

  write(name: string, w: ResourceWrite): WriteOutcome {
    const outcome = applyWrite(this.known(name), w);
    this.registers.set(name, outcome.state);
    recordLabEvent(this.paths, 'resource-write', {
      resource: name,
      holder: w.holder,
      token: w.token,
      value: w.value,
      accepted: outcome.accepted,
      lastToken: outcome.lastToken,
      previousValue: outcome.previousValue,
      fencing: outcome.state.fencing,
    });
    return outcome;
  }

  private known(name: string): ResourceState {
    const state = this.registers.get(name);
    if (!state) throw new InvalidRequestError(`no resource ${name}: lock contenders set it up when they are spawned`);
    return state;
  }
}
