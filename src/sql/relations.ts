/**
 * The three relations public SQL exposes, derived from the writing declaration: its
 * published fields (canonicalId first, schema order, bookkeeping that never leaves the
 * compiler left out) become snake_case columns of `public.writing`; the two
 * information_schema relations describe these three and nothing else. Each relation is
 * stored in the SQL image as one physical table whose name clients never send.
 */
import { UNPUBLISHED } from '../collections/define.ts';
import writing from '../collections/writing.ts';

/**
 * Column types as clients see them. `date` is ISO 8601 text `YYYY-MM-DD` (it compares
 * and orders as text, which is chronological); `json` is a JSON array written as text
 * (tags: `["node.js","streams"]`, so `tags LIKE '%"streams"%'` matches one tag exactly).
 */
export type SqlType = 'text' | 'integer' | 'real' | 'date' | 'json' | 'boolean' | 'null';

export interface SqlColumn {
  name: string;
  type: SqlType;
  nullable: boolean;
  /** The declaration field it comes from (writing only). */
  field?: string;
}

export interface SqlRelation {
  schema: 'public' | 'information_schema';
  name: string;
  /** The table in the SQL image. */
  physical: string;
  kind: 'BASE TABLE' | 'VIEW';
  columns: readonly SqlColumn[];
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

interface ZodLike {
  _zod: { def: { type: string; innerType?: ZodLike; checks?: readonly { _zod: { def: { format?: string } } }[] } };
}

function columnOf(field: string, schema: ZodLike): SqlColumn {
  let node = schema;
  let nullable = false;
  while (node._zod.def.type === 'optional' || node._zod.def.type === 'default') {
    nullable ||= node._zod.def.type === 'optional';
    node = node._zod.def.innerType!;
  }
  const kind = node._zod.def.type;
  let type: SqlType = 'text';
  if (field === writing.dateField) type = 'date';
  else if (kind === 'array') type = 'json';
  else if (kind === 'number') type = node._zod.def.checks?.some((c) => c._zod.def.format?.includes('int')) ? 'integer' : 'real';
  return { name: snake(field), type, nullable, field };
}

function writingColumns(): SqlColumn[] {
  const shape = writing.schema.shape as unknown as Record<string, ZodLike>;
  const columns: SqlColumn[] = [{ name: 'canonical_id', type: 'text', nullable: false, field: 'canonicalId' }];
  for (const [field, schema] of Object.entries(shape)) if (!UNPUBLISHED.has(field)) columns.push(columnOf(field, schema));
  return columns;
}

export const RELATIONS: readonly SqlRelation[] = [
  { schema: 'public', name: 'writing', physical: 'writing', kind: 'BASE TABLE', columns: writingColumns() },
  {
    schema: 'information_schema',
    name: 'tables',
    physical: 'information_schema_tables',
    kind: 'VIEW',
    columns: [
      { name: 'table_schema', type: 'text', nullable: false },
      { name: 'table_name', type: 'text', nullable: false },
      { name: 'table_type', type: 'text', nullable: false },
    ],
  },
  {
    schema: 'information_schema',
    name: 'columns',
    physical: 'information_schema_columns',
    kind: 'VIEW',
    columns: [
      { name: 'table_schema', type: 'text', nullable: false },
      { name: 'table_name', type: 'text', nullable: false },
      { name: 'column_name', type: 'text', nullable: false },
      { name: 'ordinal_position', type: 'integer', nullable: false },
      { name: 'data_type', type: 'text', nullable: false },
      { name: 'is_nullable', type: 'text', nullable: false },
    ],
  },
];
