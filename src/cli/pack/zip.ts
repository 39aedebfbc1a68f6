/**
 * A ZIP archive writer for `baremcp pack` (an MCP Bundle is a ZIP file): each file deflated with
 * node:zlib (or stored when deflating does not make it smaller), UTF-8 names, Unix modes in the
 * external attributes (so an executable stays executable), and one fixed timestamp, so the same
 * input gives the same bytes. No ZIP64: at most 65,535 files and 4 GiB.
 *
 * Spec: PKWARE APPNOTE.TXT 6.3.10, sections 4.3.7 (local file header), 4.3.12 (central
 * directory header), 4.3.16 (end of central directory record), 4.4.4 (general purpose bit 11:
 * UTF-8 names); RFC 1951 (DEFLATE).
 * @module
 */
import { deflateRawSync } from 'node:zlib';

/** One file of an archive. */
export interface ZipEntry {
  /** Its path in the archive, with `/` separators and no leading `/`. */
  path: string;
  data: Uint8Array;
  /** Unix permission bits (`0o644`, `0o755`). @default 0o644 */
  mode?: number;
}

/** Thrown for an archive this writer cannot make (too many files, too large, a bad path). */
export class ZipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipError';
  }
}

/** The largest file count and offset without ZIP64. */
const MAX_ENTRIES = 0xffff;
const MAX_OFFSET = 0xffffffff;

/** 1980-01-01 00:00:00 in MS-DOS date and time (the earliest a ZIP can say). */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const DOS_TIME = 0;

let table: Uint32Array | undefined;

/** CRC-32 (ISO 3309, the polynomial ZIP uses) of `data`. */
export function crc32(data: Uint8Array): number {
  if (table === undefined) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) {
    crc = (table[(crc ^ (data[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * The ZIP archive of `entries`, in the order given.
 * @throws {ZipError} for more than 65,535 entries, an archive of 4 GiB or more, a duplicate
 *   path, or a path that is absolute, empty or climbs out (`..`).
 */
export function zip(entries: readonly ZipEntry[]): Buffer {
  if (entries.length > MAX_ENTRIES) {
    throw new ZipError(`${entries.length} files: a ZIP without ZIP64 holds at most ${MAX_ENTRIES}`);
  }
  const seen = new Set<string>();
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const { path } = entry;
    if (path === '' || path.startsWith('/') || path.split('/').some((s) => s === '..' || s === '')) {
      throw new ZipError(`bad path in archive: "${path}"`);
    }
    if (seen.has(path)) throw new ZipError(`"${path}" is in the archive twice`);
    seen.add(path);
    const name = Buffer.from(path, 'utf8');
    const deflated = deflateRawSync(entry.data, { level: 9 });
    const stored = deflated.length >= entry.data.length;
    const body = stored ? Buffer.from(entry.data) : deflated;
    const crc = crc32(entry.data);
    const method = stored ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // bit 11: the name is UTF-8
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, 2.0
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt16LE(method, 10);
    header.writeUInt16LE(DOS_TIME, 12);
    header.writeUInt16LE(DOS_DATE, 14);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(body.length, 20);
    header.writeUInt32LE(entry.data.length, 24);
    header.writeUInt16LE(name.length, 28);
    // extra field length, comment length, disk number, internal attributes: 0
    header.writeUInt32LE((((0o100000 | ((entry.mode ?? 0o644) & 0o777)) << 16) >>> 0), 38);
    header.writeUInt32LE(offset, 42);
    parts.push(local, name, body);
    central.push(header, name);
    offset += local.length + name.length + body.length;
    if (offset > MAX_OFFSET) throw new ZipError('the archive would be 4 GiB or more (no ZIP64)');
  }
  const directory = Buffer.concat(central);
  if (offset + directory.length > MAX_OFFSET) {
    throw new ZipError('the archive would be 4 GiB or more (no ZIP64)');
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}
