import { describe, expect, it } from 'vitest';
import { fillPlaceholders, PLACEHOLDERS, unknownPlaceholders } from '../../../src/contenders/placeholders.js';
import { CONTENDER_FIELDS } from '../../../src/contenders/fields.js';
import { programEnv } from '../../../src/contenders/program.js';

const ctx = {
  connect: '127.0.0.1:1,127.0.0.1:2',
  id: 'c14',
  addr: '198.18.3.45',
  path: '/election',
  sessionTimeoutMs: 3000,
};

describe('placeholders of programs and probes', () => {
  it('fills {connect} {id} {n} {addr} {path} {session} and leaves other braces alone', () => {
    expect(
      fillPlaceholders(['--zk={connect}', '{id}@{path}', '{session}ms', '54{n}', '{addr}', '{"a":1}', '{other}'], ctx),
    ).toEqual(['--zk=127.0.0.1:1,127.0.0.1:2', 'c14@/election', '3000ms', '5414', '198.18.3.45', '{"a":1}', '{other}']);
  });

  it('names each word in braces that is no placeholder, once', () => {
    expect(unknownPlaceholders(['{id}', '{port}', 'x{port}y', '{ID}', '{"a":1}', '{}'])).toEqual(['{port}', '{ID}']);
    expect(unknownPlaceholders(['pg_isready', '-p', '54{n}'])).toEqual([]);
  });
});

describe('the help of contenders spawn', () => {
  it('lists every placeholder a program and a probe take, and every variable a program gets', () => {
    for (const p of PLACEHOLDERS) {
      expect(CONTENDER_FIELDS.exec.help).toContain(`{${p}}`);
      expect(CONTENDER_FIELDS.probe.help).toContain(`{${p}}`);
    }
    const env = programEnv({ connect: 'h:1', id: 'c1', addr: '127.0.0.1', path: '/e', sessionTimeoutMs: 1 }, '/lab');
    for (const name of Object.keys(env)) expect(CONTENDER_FIELDS.exec.help).toContain(name);
  });
});
