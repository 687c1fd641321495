/**
 * An export as the service hands it over — a ZIP, the folder it unpacks to, or one file —
 * seen as one list of named entries, each opened as a stream only when a source reads
 * it. The bounds (src/core/limits.ts, `import…`) are checked on the listing, before any
 * entry is inflated: the entry count, each entry's declared size and compression ratio,
 * and the archive's declared total. A truncated or corrupt ZIP, and an entry named with
 * `..` or an absolute path, are refused (yauzl checks the names and that each entry
 * inflates to its declared size). Nothing here writes anywhere.
 */
import { createReadStream, openSync, readSync, closeSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import yauzl from 'yauzl';
import { LIMITS } from '../core/limits.ts';
import { ImportRefused } from './problems.ts';

export interface ExportEntry {
  /** The entry's path inside the export, with `/` separators (the file's own name for a single file). */
  name: string;
  /** Uncompressed size in bytes. */
  size: number;
  open(): Promise<Readable>;
}

export interface ExportInput {
  /** What the path named, for messages. */
  shown: string;
  entries: readonly ExportEntry[];
  close(): void;
}

const ZIP_MAGIC = Buffer.from('PK\u0003\u0004', 'latin1');

function startsWithZipMagic(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(4);
    return readSync(fd, head, 0, 4, 0) === 4 && head.equals(ZIP_MAGIC);
  } finally {
    closeSync(fd);
  }
}

function checkEntry(shown: string, name: string, size: number, compressed?: number): void {
  if (size > LIMITS.importEntryBytesMax)
    throw new ImportRefused(`${shown}: the entry ${name} is ${size} bytes uncompressed, over the limit importEntryBytesMax (${LIMITS.importEntryBytesMax}).`);
  if (compressed !== undefined && size > 0 && size / Math.max(compressed, 1) > LIMITS.importCompressionRatioMax) {
    throw new ImportRefused(
      `${shown}: the entry ${name} inflates ${Math.round(size / Math.max(compressed, 1))} times its size, over the limit importCompressionRatioMax (${LIMITS.importCompressionRatioMax}); it looks like a ZIP bomb.`,
    );
  }
}

/** Why yauzl refused, in the owner's words. */
function zipReason(shown: string, error: Error): ImportRefused {
  const m = error.message;
  if (/absolute path|invalid relative path|invalid characters/.test(m))
    return new ImportRefused(`${shown}: the archive holds an entry named outside its own folder (${m}); refusing it.`);
  return new ImportRefused(`${shown} is not a complete, readable ZIP (${m}); download the export again.`);
}

function openZip(path: string, shown: string): Promise<ExportInput> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true, strictFileNames: false }, (error, zip) => {
      if (error || !zip) return reject(zipReason(shown, error ?? new Error('unreadable')));
      const entries: ExportEntry[] = [];
      let total = 0;
      const fail = (e: Error) => {
        zip.close();
        reject(e instanceof ImportRefused ? e : zipReason(shown, e));
      };
      zip.on('error', fail);
      zip.on('entry', (entry: yauzl.Entry) => {
        try {
          if (entries.length >= LIMITS.importArchiveEntriesMax)
            throw new ImportRefused(`${shown} holds more than ${LIMITS.importArchiveEntriesMax} entries, the limit importArchiveEntriesMax.`);
          if (!entry.fileName.endsWith('/')) {
            checkEntry(shown, entry.fileName, entry.uncompressedSize, entry.compressedSize);
            total += entry.uncompressedSize;
            if (total > LIMITS.importArchiveBytesMax)
              throw new ImportRefused(`${shown} declares more than ${LIMITS.importArchiveBytesMax} bytes uncompressed, the limit importArchiveBytesMax.`);
            entries.push({
              name: entry.fileName,
              size: entry.uncompressedSize,
              open: () =>
                new Promise<Readable>((ok, ko) =>
                  zip.openReadStream(entry, (e, stream) => (e || !stream ? ko(zipReason(shown, e ?? new Error('unreadable entry'))) : ok(stream))),
                ),
            });
          }
          zip.readEntry();
        } catch (e) {
          fail(e as Error);
        }
      });
      zip.on('end', () => resolve({ shown, entries: entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), close: () => zip.close() }));
      zip.readEntry();
    });
  });
}

function fileEntry(path: string, name: string, size: number): ExportEntry {
  return { name, size, open: async () => createReadStream(path) };
}

function openFolder(path: string, shown: string): ExportInput {
  const entries: ExportEntry[] = [];
  let total = 0;
  for (const d of readdirSync(path, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[]) {
    if (!d.isFile()) continue;
    if (entries.length >= LIMITS.importArchiveEntriesMax)
      throw new ImportRefused(`${shown} holds more than ${LIMITS.importArchiveEntriesMax} files, the limit importArchiveEntriesMax.`);
    const full = join(d.parentPath, d.name);
    const name = relative(path, full).split(sep).join('/');
    const { size } = statSync(full);
    checkEntry(shown, name, size);
    total += size;
    if (total > LIMITS.importArchiveBytesMax)
      throw new ImportRefused(`${shown} holds more than ${LIMITS.importArchiveBytesMax} bytes, the limit importArchiveBytesMax.`);
    entries.push(fileEntry(full, name, size));
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { shown, entries, close: () => {} };
}

/** The export at `path`: a ZIP (by its first bytes), a folder, or one file. */
export async function openExport(path: string): Promise<ExportInput> {
  const shown = basename(path);
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new ImportRefused(`${path}: no such file or folder.`);
  }
  if (stat.isDirectory()) return openFolder(path, shown);
  if (startsWithZipMagic(path) || path.toLowerCase().endsWith('.zip')) return openZip(path, shown);
  checkEntry(shown, shown, stat.size);
  return { shown, entries: [fileEntry(path, shown, stat.size)], close: () => {} };
}

/** The entry's bytes as a stream, inflated when its name ends in `.gz`. */
export async function openInflated(entry: ExportEntry): Promise<Readable> {
  const stream = await entry.open();
  if (!entry.name.toLowerCase().endsWith('.gz')) return stream;
  let seen = 0;
  const gunzip = createGunzip();
  gunzip.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > LIMITS.importEntryBytesMax)
      gunzip.destroy(new ImportRefused(`${entry.name} inflates past ${LIMITS.importEntryBytesMax} bytes, the limit importEntryBytesMax.`));
  });
  stream.on('error', (e) => gunzip.destroy(e));
  return stream.pipe(gunzip);
}

/** The entry's bytes (inflated) chunk by chunk, bounded by importEntryBytesMax. */
export async function* entryChunks(entry: ExportEntry): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of await openInflated(entry)) {
    size += (chunk as Buffer).length;
    if (size > LIMITS.importEntryBytesMax)
      throw new ImportRefused(`${entry.name} is larger than ${LIMITS.importEntryBytesMax} bytes, the limit importEntryBytesMax.`);
    yield chunk as Buffer;
  }
}

/** The whole entry (inflated), bounded by importEntryBytesMax. */
export async function readEntry(entry: ExportEntry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of entryChunks(entry)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The entries whose path's last part matches `pattern`, in name order. */
export function entriesNamed(input: ExportInput, pattern: RegExp): ExportEntry[] {
  return input.entries.filter((e) => pattern.test(e.name.split('/').pop() ?? ''));
}
