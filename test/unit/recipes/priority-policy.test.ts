import { describe, expect, it } from 'vitest';
import {
  EMPTY_POLICY,
  parseAdminPolicy,
  policyPath,
  preferSite,
  serializeAdminPolicy,
  withPriority,
  type AdminPolicy,
} from '../../../src/recipes/priority-policy.js';

const NOT_JSON = 'the policy is not JSON; ignored';
const NOT_OBJECT = 'the policy is not a JSON object; ignored';
const badSite = (s: string) => `sites: ${s} ignored (a site is a non-empty name, listed once)`;
const badPriority = (id: string, p: string) => `priorities.${id}: ${p} ignored (a priority is a whole number)`;

describe('policyPath', () => {
  it('is the policy child of the root', () => {
    expect(policyPath('/pe')).toBe('/pe/policy');
  });
});

describe('parseAdminPolicy', () => {
  it('reads empty or blank data as the empty policy, without problems', () => {
    for (const text of ['', '   ', '\n\t ']) {
      expect(parseAdminPolicy(text)).toEqual({ policy: { sites: [], priorities: {} }, problems: [] });
    }
  });

  it('reads a valid policy, keeping the site order and every priority', () => {
    expect(parseAdminPolicy('{"sites": ["b", "a"], "priorities": {"c3": 50, "c1": -2, "c10": 0}}')).toEqual({
      policy: { sites: ['b', 'a'], priorities: { c3: 50, c1: -2, c10: 0 } },
      problems: [],
    });
  });

  it('reads an object without sites or priorities as empty lists, and ignores unknown keys', () => {
    expect(parseAdminPolicy('{}')).toEqual({ policy: { sites: [], priorities: {} }, problems: [] });
    expect(parseAdminPolicy('{"sites": ["a"], "other": 1}')).toEqual({
      policy: { sites: ['a'], priorities: {} },
      problems: [],
    });
    expect(parseAdminPolicy('{"priorities": {"c1": 3}}')).toEqual({
      policy: { sites: [], priorities: { c1: 3 } },
      problems: [],
    });
  });

  it('ignores malformed JSON as a whole', () => {
    for (const text of ['{"sites":', 'sites: [a]', "{'sites': []}", '{"sites": []}}']) {
      expect(parseAdminPolicy(text)).toEqual({ policy: { sites: [], priorities: {} }, problems: [NOT_JSON] });
    }
  });

  it('ignores JSON that is not an object as a whole', () => {
    for (const text of ['null', '42', '"a"', 'true', '["a", "b"]', '[]']) {
      expect(parseAdminPolicy(text)).toEqual({ policy: { sites: [], priorities: {} }, problems: [NOT_OBJECT] });
    }
  });

  it('ignores sites that are not a list, keeping the priorities', () => {
    expect(parseAdminPolicy('{"sites": "a", "priorities": {"c1": 4}}')).toEqual({
      policy: { sites: [], priorities: { c1: 4 } },
      problems: ['sites is not a list; ignored'],
    });
    expect(parseAdminPolicy('{"sites": {"a": 1}}')).toEqual({
      policy: { sites: [], priorities: {} },
      problems: ['sites is not a list; ignored'],
    });
    expect(parseAdminPolicy('{"sites": null}')).toEqual({
      policy: { sites: [], priorities: {} },
      problems: ['sites is not a list; ignored'],
    });
  });

  it('drops empty, repeated and non-string sites one by one, keeping the first occurrence in order', () => {
    expect(parseAdminPolicy('{"sites": ["b", "", "a", "b", 3, null, {"x": 1}, "c", "a"]}')).toEqual({
      policy: { sites: ['b', 'a', 'c'], priorities: {} },
      problems: [badSite('""'), badSite('"b"'), badSite('3'), badSite('null'), badSite('{"x":1}'), badSite('"a"')],
    });
  });

  it('drops priorities that are not whole numbers one by one, keeping the rest', () => {
    expect(
      parseAdminPolicy('{"priorities": {"c1": 1.5, "c2": "7", "c3": null, "c4": 4, "c5": true, "c6": [1], "c7": -9}}'),
    ).toEqual({
      policy: { sites: [], priorities: { c4: 4, c7: -9 } },
      problems: [
        badPriority('c1', '1.5'),
        badPriority('c2', '"7"'),
        badPriority('c3', 'null'),
        badPriority('c5', 'true'),
        badPriority('c6', '[1]'),
      ],
    });
  });

  it('accepts a whole number written with a fraction or exponent', () => {
    expect(parseAdminPolicy('{"priorities": {"c1": 2.0, "c2": 1e2}}')).toEqual({
      policy: { sites: [], priorities: { c1: 2, c2: 100 } },
      problems: [],
    });
  });

  it('ignores priorities that are not an object, keeping the sites', () => {
    for (const priorities of ['[1, 2]', '5', 'null', '"c1"']) {
      expect(parseAdminPolicy(`{"sites": ["a"], "priorities": ${priorities}}`)).toEqual({
        policy: { sites: ['a'], priorities: {} },
        problems: ['priorities is not an object; ignored'],
      });
    }
  });

  it('reports problems in both fields, sites first', () => {
    expect(parseAdminPolicy('{"priorities": {"c1": 0.5}, "sites": ["a", "a"]}')).toEqual({
      policy: { sites: ['a'], priorities: {} },
      problems: [badSite('"a"'), badPriority('c1', '0.5')],
    });
  });
});

describe('serializeAdminPolicy', () => {
  it('writes sites then priorities as compact JSON', () => {
    expect(serializeAdminPolicy({ sites: ['b', 'a'], priorities: { c3: 50 } })).toBe(
      '{"sites":["b","a"],"priorities":{"c3":50}}',
    );
    expect(serializeAdminPolicy(EMPTY_POLICY)).toBe('{"sites":[],"priorities":{}}');
  });

  it('round-trips through parseAdminPolicy without problems', () => {
    const policies: AdminPolicy[] = [
      EMPTY_POLICY,
      { sites: ['west', 'east', 'north'], priorities: {} },
      { sites: [], priorities: { c1: -3, c2: 0, c10: 99 } },
      { sites: ['b', 'a'], priorities: { c3: 50, c1: 7 } },
    ];
    for (const p of policies) {
      expect(parseAdminPolicy(serializeAdminPolicy(p))).toEqual({ policy: p, problems: [] });
    }
  });
});

describe('preferSite', () => {
  const p: AdminPolicy = { sites: ['a', 'b', 'c'], priorities: { c1: 4 } };

  it('moves the site first and keeps the others in their order', () => {
    expect(preferSite(p, 'c', [])).toEqual({ sites: ['c', 'a', 'b'], priorities: { c1: 4 } });
    expect(preferSite(p, 'b', [])).toEqual({ sites: ['b', 'a', 'c'], priorities: { c1: 4 } });
  });

  it('appends known sites the policy does not list, in their order, after the listed ones', () => {
    expect(preferSite({ sites: ['a', 'b'], priorities: {} }, 'b', ['d', 'a', 'c'])).toEqual({
      sites: ['b', 'a', 'd', 'c'],
      priorities: {},
    });
    expect(preferSite(EMPTY_POLICY, 'y', ['x', 'y', 'z'])).toEqual({ sites: ['y', 'x', 'z'], priorities: {} });
  });

  it('puts a site neither listed nor known first', () => {
    expect(preferSite({ sites: ['a'], priorities: {} }, 'z', ['a', 'b'])).toEqual({
      sites: ['z', 'a', 'b'],
      priorities: {},
    });
    expect(preferSite(EMPTY_POLICY, 'x', [])).toEqual({ sites: ['x'], priorities: {} });
  });

  it('leaves the order alone when the site is already first', () => {
    expect(preferSite(p, 'a', [])).toEqual({ sites: ['a', 'b', 'c'], priorities: { c1: 4 } });
    expect(preferSite(p, 'a', ['c', 'a'])).toEqual({ sites: ['a', 'b', 'c'], priorities: { c1: 4 } });
  });

  it('does not change the policy it was given', () => {
    preferSite(p, 'c', ['d']);
    expect(p).toEqual({ sites: ['a', 'b', 'c'], priorities: { c1: 4 } });
  });
});

describe('withPriority', () => {
  const p: AdminPolicy = { sites: ['a'], priorities: { c1: 4 } };

  it('adds a priority, keeping the others and the sites', () => {
    expect(withPriority(p, 'c2', 9)).toEqual({ sites: ['a'], priorities: { c1: 4, c2: 9 } });
  });

  it('replaces an existing priority, including with zero or a negative', () => {
    expect(withPriority(p, 'c1', 0)).toEqual({ sites: ['a'], priorities: { c1: 0 } });
    expect(withPriority(p, 'c1', -7)).toEqual({ sites: ['a'], priorities: { c1: -7 } });
  });

  it('does not change the policy it was given', () => {
    withPriority(p, 'c1', 100);
    withPriority(p, 'c9', 1);
    expect(p).toEqual({ sites: ['a'], priorities: { c1: 4 } });
  });
});

describe('ids that are no ordinary property names', () => {
  it('keeps a priority for an id named __proto__ and refuses an empty id', () => {
    const { policy, problems } = parseAdminPolicy('{"priorities":{"__proto__":5,"":3,"c1":2}}');
    expect(Object.entries(policy.priorities)).toEqual([
      ['__proto__', 5],
      ['c1', 2],
    ]);
    expect(problems).toEqual(['priorities: an empty id ignored']);
    expect(JSON.parse(serializeAdminPolicy(policy))).toEqual(
      JSON.parse('{"sites":[],"priorities":{"__proto__":5,"c1":2}}'),
    );
  });
});
