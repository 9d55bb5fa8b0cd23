import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { renderLabs, renderLabsDown } from '../../../../src/cli/views/labs.js';
import type { LabListing } from '../../../../src/ensemble/labs.js';

function listing(command: string): LabListing {
  return {
    root: '/tmp/zklab-drill-abc123',
    kind: 'owned',
    command,
    status: 'running',
    reason: null,
    owner: { pid: 4242, alive: true },
    servers: { running: 3, total: 3 },
    contenders: { running: 2, total: 2 },
    clientPorts: [21811, 21812, 21813],
    processes: 6,
    ageMs: 12_000,
  };
}

describe('zklab labs', () => {
  it('keeps the start of what made a lab, which says what it is, and cuts the end', () => {
    const text = stripVTControlCharacters(renderLabs([listing('drill run scheduler-atomic-assign')]));
    const row = text.split('\n')[1]!;
    expect(row).toMatch(/drill run scheduler-ato…$/);
    expect(row).not.toMatch(/dri…/);
    const wide = stripVTControlCharacters(renderLabs([listing('drill run scheduler-atomic-assign')], { wide: true }));
    expect(wide).toContain('drill run scheduler-atomic-assign');
  });
});

describe('zklab labs down', () => {
  it('says what it stopped, and that there was nothing to stop when nothing ran', () => {
    expect(renderLabsDown([{ root: '/x/lab', stopped: 5 }])).toBe('stopped /x/lab (5 processes)');
    expect(renderLabsDown([{ root: '/x/lab', stopped: 0 }])).toBe(
      'nothing to stop in /x/lab: nothing of it was running',
    );
    expect(renderLabsDown([])).toBe('no labs to stop');
  });
});
