import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { FaultKind } from '../../../../src/faults/kinds/kind.js';
import {
  FAULT_KINDS,
  faultKindNamed,
  isLabLine,
  nodeStartPrep,
  ownSteps,
  windowRuleOf,
  windowRules,
} from '../../../../src/faults/kinds/registry.js';
import { LAB_EVENTS } from '../../../../src/lab/events.js';
import { LabPaths } from '../../../../src/lab/paths.js';

const KINDS: readonly FaultKind[] = FAULT_KINDS;

describe('the fault kind registry', () => {
  it('names each kind once, and finds it by its name', () => {
    const names = KINDS.map((k) => k.name);
    expect(new Set(names).size).toBe(names.length);
    for (const k of KINDS) expect(faultKindNamed(k.name)).toBe(k);
    expect(faultKindNamed('explode')).toBeUndefined();
  });

  it('gives every kind a one-line description', () => {
    for (const k of KINDS) {
      expect(k.description.length, k.name).toBeGreaterThan(10);
      expect(k.description, k.name).not.toMatch(/\n/);
    }
  });

  it('gives every kind hooks on some backend', () => {
    for (const k of KINDS) expect(Object.keys(k.backends).length, k.name).toBeGreaterThan(0);
  });

  it('gives every window rule a colour, a label and the members it hits, one rule per event', () => {
    const events = windowRules().map((r) => r.event);
    expect(new Set(events).size).toBe(events.length);
    for (const r of windowRules()) {
      expect(r.colour, r.event).toMatch(/^#[0-9a-f]{6}$/);
      expect(typeof r.label, r.event).toBe('function');
      expect(typeof r.hits, r.event).toBe('function');
      expect(windowRuleOf(r.event)).toBe(r);
    }
  });

  it('has kinds that write the same event list the same rule for it', () => {
    for (const r of KINDS.flatMap((k) => k.windows ?? [])) expect(windowRuleOf(r.event), r.event).toBe(r);
  });

  it("declares each kind's own events once, none of them the lab's own, each opening a window", () => {
    const own = KINDS.flatMap((k) => Object.keys(k.events ?? {}));
    expect(new Set(own).size).toBe(own.length);
    for (const e of own) {
      expect(Object.keys(LAB_EVENTS), e).not.toContain(e);
      expect(windowRuleOf(e), e).toBeDefined();
    }
  });

  it("reads the lab's own lines and the kinds' lines, and no other", () => {
    expect(isLabLine({ t: 1, source: 'lab', event: 'ensemble-up', servers: 3 })).toBe(true);
    for (const e of KINDS.flatMap((k) => Object.keys(k.events ?? {})))
      expect(isLabLine({ t: 1, source: 'lab', event: e }), e).toBe(true);
    expect(isLabLine({ t: 1, source: 'lab', event: 'explode' })).toBe(false);
    expect(isLabLine({ t: 1, event: 'ensemble-up' })).toBe(false);
  });

  it('gives each own drill step a key of its own, and fields or a value', () => {
    const keys = ownSteps().map((s) => s.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const s of ownSteps()) {
      if (s.fields) expect(Object.keys(s.fields(z)).length, s.key).toBeGreaterThan(0);
      else expect(s.value(z), s.key).toBeInstanceOf(z.ZodType);
    }
  });

  it('prepares a node at its start with what the kinds ask for: the clock shim, unless ZKLAB_CLOCK=off', () => {
    const paths = new LabPaths(mkdtempSync(join(tmpdir(), 'zklab-start-')));
    const { env } = nodeStartPrep({ paths, node: 'zk1' });
    expect(env.LD_PRELOAD).toMatch(/zklab-clock-[0-9a-f]+\.so$/);
    expect(env.ZKLAB_CLOCK_FILE).toBe(join(paths.kindsDir, 'clock', 'zk1'));
    // The node starts with a true clock: its file is there, and says no fault.
    expect(statSync(env.ZKLAB_CLOCK_FILE!).size).toBe(32);
    process.env.ZKLAB_CLOCK = 'off';
    try {
      expect(nodeStartPrep({ paths, node: 'zk2' })).toEqual({ env: {} });
    } finally {
      delete process.env.ZKLAB_CLOCK;
    }
  });
});
