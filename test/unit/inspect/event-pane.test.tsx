import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { EventPane } from '../../../src/inspect/views/EventPane.js';
import { predecessor } from './fixtures.js';
import { lines, masked, plain } from './frame.js';

describe('EventPane', () => {
  it('shows the latest events, newest last, with millisecond times', () => {
    const frame = render(<EventPane events={predecessor.events} limit={3} width={100} />).lastFrame();
    expect(lines(frame)).toHaveLength(3);
    for (const l of lines(frame)) expect(l).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3} /);
    expect(masked(frame).split('\n')).toEqual([
      '--:--:--.--- c3   follower           predecessor=c2',
      '--:--:--.--- lab  contender-paused   id=c4',
      '--:--:--.--- lab  partition          server=zk3',
    ]);
  });

  it('says so when there are none', () => {
    expect(plain(render(<EventPane events={[]} limit={5} width={100} />).lastFrame())).toBe('no events yet');
  });
});
