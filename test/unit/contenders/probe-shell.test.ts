import { afterEach, describe, expect, it } from 'vitest';
import { ProbeShell } from '../../../src/contenders/probe-shell.js';
import { liveProcesses } from '../../helpers/node-processes.js';
import { waitFor } from '../../helpers/wait.js';

/** The probe's own process, as the kernel lists it: `sleep 7.391`, a duration no other process here uses. */
const sleeps = (): number[] => liveProcesses((args) => args[0] === 'sleep' && args[1] === '7.391');

const shells: ProbeShell[] = [];
afterEach(() => {
  for (const s of shells.splice(0)) s.close();
});

describe('a probe shell', () => {
  it("says each run's exit, and why a program could not run", async () => {
    const s = new ProbeShell(['sh', '-c', 'exit 3'], process.env);
    shells.push(s);
    expect([await s.run(), await s.run()]).toEqual([{ exit: 3 }, { exit: 3 }]);
    const missing = new ProbeShell(['/nonexistent/probe'], process.env);
    shells.push(missing);
    expect(await missing.run()).toEqual({ failed: 'the shell could not run it (exit 127)' });
  });

  it('kills a hung probe: the run ends as killed, its process is gone, and the next run starts', async () => {
    const s = new ProbeShell(['sleep', '7.391'], process.env);
    shells.push(s);
    const run = s.run();
    await waitFor(() => sleeps().length === 1, 'the probe to run');
    s.killRunning();
    expect(await run).toEqual({ exit: 137 });
    expect(sleeps()).toEqual([]);
    const next = s.run();
    await waitFor(() => sleeps().length === 1, 'the next run');
    s.close();
    expect(await next).toEqual({ failed: 'its shell is gone' });
    await waitFor(() => sleeps().length === 0, 'nothing left once the shell is closed');
  });
});
