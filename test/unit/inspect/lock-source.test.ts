import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { LabPaths } from '../../../src/lab/paths.js';
import { emptyState, type ContenderRecord } from '../../../src/lab/state.js';
import { LabTail } from '../../../src/inspect/source/lab-tail.js';
import { LOCK, configured, fencedHistory } from './lock-raw.js';

function lab(contenders: ContenderRecord[]): LabPaths {
  const dir = mkdtempSync(join(tmpdir(), 'zklab-lock-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const paths = new LabPaths(dir);
  writeFileSync(paths.stateFile, JSON.stringify({ ...emptyState(), contenders }));
  mkdirSync(paths.eventsDir, { recursive: true });
  return paths;
}

const lockContender = (id: string, path: string, recipe = 'predecessor'): ContenderRecord => ({
  id,
  recipe,
  path,
  sessionTimeoutMs: 2000,
  startedAt: 0,
  lock: { holdMs: 100, thinkMs: 50, fencing: true },
});
const lines = (events: readonly object[]): string => events.map((e) => `${JSON.stringify(e)}\n`).join('');

describe('LabTail for a lock', () => {
  it("names the lab's lock paths, and keeps every decision of the inspected lock's resource (not only the recent ones)", () => {
    const paths = lab([
      lockContender('c1', LOCK),
      lockContender('c2', LOCK, 'herd'),
      lockContender('c3', '/other'),
      { id: 'c4', recipe: 'predecessor', path: '/election', sessionTimeoutMs: 2000, startedAt: 0 },
    ]);
    const history = fencedHistory();
    writeFileSync(
      paths.labEventsFile,
      lines([
        ...history.slice(0, 30),
        configured(false, 0, '/other'),
        { t: 1, source: 'lab', event: 'ensemble-up', servers: 3 },
      ]),
    );
    const tail = new LabTail(paths, LOCK);
    tail.poll();
    expect(tail.lockPaths()).toEqual([LOCK, '/other']);
    expect(tail.records().map((r) => r.id)).toEqual(['c1', 'c2']);
    appendFileSync(paths.labEventsFile, lines(history.slice(30)));
    tail.poll();
    // 59 of this lock's resource events and two others: more than the event pane keeps of the lab's log.
    expect(tail.resourceEvents()).toEqual(history);
    expect(tail.events().filter((e) => 'resource' in e && e.resource === LOCK).length).toBeLessThan(history.length);
  });

  it("starts over when the lab's log does", () => {
    const paths = lab([lockContender('c1', LOCK)]);
    writeFileSync(paths.labEventsFile, lines(fencedHistory()));
    const tail = new LabTail(paths, LOCK);
    tail.poll();
    writeFileSync(paths.labEventsFile, lines([configured(true)]));
    tail.poll();
    expect(tail.resourceEvents()).toEqual([configured(true)]);
  });
});
