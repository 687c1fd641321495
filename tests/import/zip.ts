/**
 * A minimal ZIP writer for the import tests (stored or deflated entries, any names), so a
 * fixture folder can be handed to the importer as the ZIP a service sends, and hostile
 * archives (`..` names, absolute names, lying sizes, cut short) can be made by hand.
 * Written from the PKWARE APPNOTE's local header, central directory and end record.
 */
import { crc32, deflateRawSync } from 'node:zlib';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export interface ZipEntry {
  name: string;
  data: Buffer | string;
  /** Overrides the uncompressed size written in the headers (to make a lying archive). */
  declaredSize?: number;
  store?: boolean;
}

export function zip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const raw = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data);
    const body = entry.store ? raw : deflateRawSync(raw);
    const name = Buffer.from(entry.name);
    const size = entry.declaredSize ?? raw.length;
    const crc = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(entry.store ? 0 : 8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(entry.store ? 0 : 8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Every file under `dir` as ZIP entries named relative to it (optionally under `prefix/`). */
export function zipFolder(dir: string, prefix = ''): Buffer {
  const files = (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name))
    .sort();
  return zip(files.map((f) => ({ name: prefix + relative(dir, f).split(sep).join('/'), data: readFileSync(f) })));
}
