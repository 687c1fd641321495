/**
 * CSV (RFC 4180) for a page of items: a header row of the collection's published fields
 * (schema order, then derived fields), one row per item, CRLF line ends, fields quoted
 * when they hold a comma, quote or line break. Arrays are joined with "; " and objects
 * (coordinates, external IDs) are written as their JSON text, so every cell is flat.
 */
const quote = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);

function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join('; ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function renderCsv(columns: readonly string[], items: readonly Record<string, unknown>[]): string {
  const lines = [columns.map(quote).join(',')];
  for (const item of items) lines.push(columns.map((c) => quote(cell(item[c]))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
