import { readLabEvents, recordLabEvent } from '../lab/event-log.js';
import { applyWrite, emptyResource, replayResources, type ResourceState, type ResourceWrite, type WriteOutcome } from '../lab/fenced-resource.js';
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

  configure(name: string, fencing: boolean): ResourceState {
    const state = this.registers.get(name) ?? emptyResource(name, fencing);
    const next = { ...state, fencing };
    this.registers.set(name, next);
    recordLabEvent(this.paths, 'resource-configured', { resource: name, fencing });
    return next;
  }

  read(name: string): ResourceState {
    return this.known(name);
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
