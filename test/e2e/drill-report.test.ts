import { execa } from 'execa';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/templates.js';
import { zklab } from '../helpers/cli.js';
import { tempDir } from '../helpers/paths.js';

/**
 * The HTML report as a person sees it: rendered by headless Chromium (Debian's `chromium`, installed by bin/setup),
 * checked in the DOM for its timeline and verdicts, and saved as a screenshot under test-artifacts/.
 */

const CHROMIUM = 'chromium';
const ARTIFACTS = join(PACKAGE_ROOT, 'test-artifacts');

async function chromium(args: readonly string[]): Promise<string> {
  const profile = `${tempDir()}/chromium-profile`;
  const r = await execa(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--user-data-dir=${profile}`,
      ...args,
    ],
    { timeout: 90_000, reject: false, stdin: 'ignore' },
  );
  if (r.exitCode !== 0) throw new Error(`chromium exited ${r.exitCode}: ${r.stderr.split('\n').slice(-5).join('\n')}`);
  return r.stdout;
}

describe('zklab drill run --report, opened in headless Chromium', () => {
  const dir = tempDir();
  const html = `${dir}/zombie-leader.html`;
  let stdout = '';

  beforeAll(async () => {
    const found = await execa(CHROMIUM, ['--version'], { reject: false });
    if (found.exitCode !== 0)
      throw new Error('chromium is not installed: `apt-get install -y chromium` (bin/setup installs it)');
    const r = await zklab(['drill', 'run', 'zombie-leader', '--report', html, '--lab', `${dir}/lab`, '--seed', '5'], {
      timeoutMs: 120_000,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`report: ${html}`);
    stdout = r.stdout;
  }, 150_000);

  it('prints the verdicts the report shows', () => {
    expect(stdout).toMatch(/^drill zombie-leader: PASSED \([\d.]+m?s, seed 5\)$/m);
    expect(stdout).toMatch(/^ {2}PASSED {2}expect a new leader within 6s \(line 12\): c2 leads/m);
  });

  it('is one self-contained file: no scripts, no external assets', () => {
    const text = readFileSync(html, 'utf8');
    expect(text).not.toMatch(/<script|<link |src="http|href="http/);
  });

  it('renders the timeline, one lane per contender with the pause as a band, and the verdicts', async () => {
    const dom = await chromium(['--dump-dom', `file://${html}`]);
    expect(dom).toMatch(/<title>zklab drill zombie-leader: PASSED<\/title>/);
    expect(dom).toMatch(/<span class="verdict passed">PASSED<\/span>.*, seed 5<\/p>/);
    expect(dom).toContain('<svg class="timeline"');
    for (const c of ['c1', 'c2', 'c3']) expect(dom).toContain(`<g class="lane" data-contender="${c}">`);
    expect(dom).toMatch(/class="seg seg-frozen"/);
    expect(dom).toMatch(/class="seg seg-leader"/);
    expect(dom).toMatch(/<g class="band band-contender-paused">/);
    expect(dom).toMatch(/>pause c1</);
    const verdicts = [...dom.matchAll(/<li class="(expectation|check) (ok|bad)">([^<]*)<\/li>/g)].map((m) => [
      m[1],
      m[2],
      m[3],
    ]);
    expect(verdicts).toContainEqual([
      'expectation',
      'ok',
      expect.stringMatching(/^PASSED: expect a new leader within 6s \(step 4, line 12\): c2 leads/),
    ]);
    expect(verdicts).toContainEqual(['check', 'ok', 'PASSED: check singleLeader: no stale leader acted']);
    expect(verdicts.every(([, ok]) => ok === 'ok')).toBe(true);
    expect(dom).toMatch(/<table class="steps">[\s\S]*resume leader → c1/);
    expect(dom).toMatch(/<table class="measurements">[\s\S]*failover after pause c1/);
  }, 120_000);

  it('leaves a screenshot for people in test-artifacts/', async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const png = join(ARTIFACTS, 'drill-report-zombie-leader.png');
    await chromium([`--screenshot=${png}`, '--window-size=1400,1000', `file://${html}`]);
    expect(existsSync(png)).toBe(true);
    expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
    // A blank page compresses to a few KB; lanes, bands and text do not.
    expect(statSync(png).size).toBeGreaterThan(30_000);
  }, 120_000);
});
