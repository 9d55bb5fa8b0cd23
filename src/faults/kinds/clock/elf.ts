import { closeSync, openSync, readSync } from 'node:fs';

/**
 * What a program's ELF file says about whether a preloaded library can fake its clock: a static binary (no program
 * interpreter, PT_INTERP) never loads one; a Go program reads the clock through the vDSO itself, past libc, even when
 * it is linked dynamically (its `.go.buildinfo` or `.note.go.buildid` section gives it away).
 */
export interface ElfFacts {
  readonly dynamic: boolean;
  readonly go: boolean;
}

const PT_INTERP = 3;
const GO_SECTIONS = new Set(['.go.buildinfo', '.note.go.buildid', '.gopclntab']);

/** The facts of a 64-bit little-endian ELF file (`/proc/<pid>/exe`); undefined for anything else or unreadable. */
export function elfFacts(file: string): ElfFacts | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const read = (at: number | bigint, length: number): Buffer => {
      const b = Buffer.alloc(length);
      const n = readSync(fd, b, 0, length, Number(at));
      return b.subarray(0, n);
    };
    const h = read(0, 64);
    // \x7fELF, ELFCLASS64, little-endian.
    if (h.length < 64 || h.readUInt32BE(0) !== 0x7f454c46 || h[4] !== 2 || h[5] !== 1) return undefined;
    const phoff = h.readBigUInt64LE(32);
    const shoff = h.readBigUInt64LE(40);
    const phentsize = h.readUInt16LE(54);
    const phnum = h.readUInt16LE(56);
    const shentsize = h.readUInt16LE(58);
    const shnum = h.readUInt16LE(60);
    const shstrndx = h.readUInt16LE(62);
    const ph = read(phoff, phentsize * phnum);
    let dynamic = false;
    for (let i = 0; i + 4 <= ph.length && i < phentsize * phnum; i += phentsize)
      if (ph.readUInt32LE(i) === PT_INTERP) dynamic = true;
    return { dynamic, go: hasGoSection(read, shoff, shentsize, shnum, shstrndx) };
  } finally {
    closeSync(fd);
  }
}

function hasGoSection(
  read: (at: number | bigint, length: number) => Buffer,
  shoff: bigint,
  shentsize: number,
  shnum: number,
  shstrndx: number,
): boolean {
  if (shoff === 0n || shnum === 0 || shstrndx >= shnum || shentsize < 64) return false;
  const sh = read(shoff, shentsize * shnum);
  if (sh.length < shentsize * shnum) return false;
  const strtab = sh.subarray(shstrndx * shentsize);
  const names = read(strtab.readBigUInt64LE(24), Math.min(Number(strtab.readBigUInt64LE(32)), 1 << 20));
  for (let i = 0; i < shnum; i++) {
    const at = sh.readUInt32LE(i * shentsize);
    const end = names.indexOf(0, at);
    if (GO_SECTIONS.has(names.toString('latin1', at, end < 0 ? undefined : end))) return true;
  }
  return false;
}
