import { describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../../../src/drills/report/html.js';
import { HOSTILE, sampleResult } from './sample-result.js';

const lane = (html: string, id: string) =>
  html.match(new RegExp(`<g class="lane" data-contender="${id}">([\\s\\S]*?)</g>`))?.[1] ?? '';

describe('renderHtmlReport', () => {
  const html = renderHtmlReport(sampleResult());

  it('draws one lane per contender with its states', () => {
    expect(lane(html, 'c1')).toMatch(/seg-leader/);
    expect(lane(html, 'c1')).toMatch(/seg-frozen/);
    expect(lane(html, 'c2')).toMatch(/seg-leader/);
    expect(lane(html, 'c2')).toMatch(/seg-dead/);
    expect(lane(html, 'c3')).toMatch(/seg-follower/);
    expect(lane(html, 'c4')).toBe('');
  });

  it("keeps the lines of a broken run's error, a program's stderr among them", () => {
    const page = renderHtmlReport({
      ...sampleResult(),
      error: 'c1 exited; its last stderr lines:\n  Traceback\n  ValueError',
    });
    expect(page).toMatch(/\.broke \{ white-space: pre-wrap; \}/);
    expect(page).toContain(
      '<p class="bad broke">The run broke: c1 exited; its last stderr lines:\n  Traceback\n  ValueError</p>',
    );
  });

  it('marks the frozen leader that still believes it leads', () => {
    expect(lane(html, 'c1')).toMatch(/seg-belief/);
    expect(lane(html, 'c3')).not.toMatch(/seg-belief/);
  });

  it("draws a node's acting by its probe along its lane, the data plane of a dead agent included", () => {
    const base = sampleResult();
    const probed = (t: number, id: string, leads: boolean) => ({
      t: base.startedAt + t,
      id,
      pid: 1,
      session: null,
      znode: null,
      source: 'probe' as const,
      event: 'probed' as const,
      leads,
      everyMs: 250,
    });
    const withProbes = renderHtmlReport(
      sampleResult({ contenderEvents: [...base.contenderEvents, probed(100, 'c2', true), probed(900, 'c3', true)] }),
    );
    expect(lane(withProbes, 'c2')).toMatch(/<rect class="seg-acting"[^>]*><title>c2 acts as leader by its probe/);
    expect(lane(withProbes, 'c3')).toMatch(/seg-acting/);
    expect(lane(withProbes, 'c1')).not.toMatch(/seg-acting/);
    expect(withProbes).toContain('legend-acting');
    expect(html).not.toContain('legend-acting');
  });

  it('draws the faults as labelled bands', () => {
    expect(html).toMatch(/<g class="band band-contender-paused">[\s\S]*?<text[^>]*>pause c1<\/text>/);
    expect(html).toMatch(/<g class="band band-contender-killed">[\s\S]*?<text[^>]*>kill c2 \(SIGKILL\)<\/text>/);
    expect(html).toMatch(/<g class="band band-partition">[\s\S]*?<text[^>]*>isolate c3 &lt;script&gt;/);
  });

  it('has a legend naming every state', () => {
    for (const state of ['follower', 'leader', 'paused', 'frozen', 'dead']) expect(html).toContain(`legend-${state}`);
  });

  it('gives the verdict and one line per expectation and check', () => {
    expect(html).toContain('<span class="verdict passed">PASSED</span>');
    expect(html).toMatch(/<li class="expectation ok">PASSED: expect a new leader within 3s \(step 3, line 14\)/);
    expect(html).toMatch(/<li class="check ok">FAILED \(expected\): check singleLeader/);
    expect(html).toMatch(/<li class="check ok">PASSED: check failoverTime/);
  });

  it('fails the verdict when an expectation fails', () => {
    const failed = sampleResult({
      expectations: [{ step: '3', line: 14, description: 'c3 leads', passed: false, detail: 'c2 leads', t: 0 }],
    });
    const out = renderHtmlReport(failed);
    expect(out).toContain('<span class="verdict failed">FAILED</span>');
    expect(out).toContain('<li class="expectation bad">FAILED: expect c3 leads');
  });

  it('lists the measurements', () => {
    expect(html).toMatch(
      /<td>failoverTime<\/td><td>failover after pause c1<\/td><td class="num">\+1s<\/td><td class="num">2s<\/td>/,
    );
  });

  it('escapes hostile text everywhere', () => {
    expect(html).not.toContain(HOSTILE);
    expect(html).not.toContain('<script>');
    expect(html.match(/&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;&amp;/g)?.length).toBeGreaterThanOrEqual(5);
  });

  it('escapes a hostile contender id in its lane', () => {
    const r = sampleResult();
    const out = renderHtmlReport({
      ...r,
      contenderEvents: [...r.contenderEvents, { ...r.contenderEvents[0]!, id: '"><img src=x>' }],
    });
    expect(out).not.toContain('<img');
    expect(out).toContain('data-contender="&quot;&gt;&lt;img src=x&gt;"');
  });

  it('needs nothing from outside the page', () => {
    expect(html).not.toMatch(/<link|<script|src=|href=/i);
  });
});
