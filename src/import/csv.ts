/**
 * Reading a CSV export row by row (csv-parse, streamed), its columns found by their header
 * names, never by position: exports add, drop and reorder columns, and Strava's localises
 * its headers and repeats some names (its second `Distance` is in metres). A file whose
 * header lacks a required column is refused, naming the export it should have been and
 * the columns it lacks.
 */
import { parse } from 'csv-parse';
import { LIMITS } from '../core/limits.ts';
import { openInflated, type ExportEntry } from './archive.ts';
import { ImportRefused } from './problems.ts';

export interface Column {
  /** The header names it may have (localised exports give several). */
  names: readonly string[];
  required?: boolean;
  /** Which occurrence of a repeated name (0 = first). */
  occurrence?: number;
}

export type Columns<K extends string> = Record<K, Column>;

export interface CsvRow<K extends string> {
  /** The row's number in the file, the header being row 1. */
  row: number;
  /** The cell of a column (trimmed), undefined when the file has no such column or the cell is empty. */
  get(key: K): string | undefined;
}

function resolveColumns<K extends string>(header: readonly string[], columns: Columns<K>, file: string, exportName: string): Map<K, number> {
  const found = new Map<K, number>();
  const missing: string[] = [];
  const clean = header.map((h) => h.replace(/^\uFEFF/, '').trim());
  for (const [key, column] of Object.entries(columns) as [K, Column][]) {
    let index = -1;
    for (const name of column.names) {
      const at = clean.flatMap((h, i) => (h === name ? [i] : []))[column.occurrence ?? 0];
      if (at !== undefined) {
        index = at;
        break;
      }
    }
    if (index >= 0) found.set(key, index);
    else if (column.required) missing.push(column.names[0]!);
  }
  if (missing.length) {
    throw new ImportRefused(
      `${file} is not ${exportName}: it has no column ${missing.join(', ')}. Its header is: ${clean.slice(0, 12).join(', ')}${clean.length > 12 ? ', …' : ''}.`,
    );
  }
  return found;
}

/** The rows of a CSV entry, with cells found by column. */
export async function* readCsv<K extends string>(entry: ExportEntry, exportName: string, columns: Columns<K>): AsyncGenerator<CsvRow<K>> {
  const parser = (await openInflated(entry)).pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true }));
  let index: Map<K, number> | undefined;
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row++;
      if (!index) {
        index = resolveColumns(record, columns, entry.name, exportName);
        continue;
      }
      if (row > LIMITS.importRecordsMax) throw new ImportRefused(`${entry.name} has more than ${LIMITS.importRecordsMax} rows, the limit importRecordsMax.`);
      const cells = record;
      const at = index;
      yield {
        row,
        get: (key) => {
          const i = at.get(key);
          const value = i === undefined ? undefined : cells[i]?.trim();
          return value ? value : undefined;
        },
      };
    }
  } catch (error) {
    if (error instanceof ImportRefused) throw error;
    throw new ImportRefused(`${entry.name} is not a readable CSV file near row ${row + 1} (${(error as Error).message.split('\n')[0]}).`);
  }
  if (!index) throw new ImportRefused(`${entry.name} is empty: expected ${exportName} with its header row.`);
}
