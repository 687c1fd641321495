/**
 * The accepted SQL grammar. A statement is parsed by a real SQL parser (node-sql-parser,
 * PostgreSQL dialect) and its syntax tree is walked against an explicit allow-list:
 * one SELECT of columns and typed literals (with aliases) from one published relation,
 * a WHERE of comparisons, IS [NOT] NULL, [NOT] IN (literals), [NOT] LIKE and BETWEEN
 * joined by AND, OR, NOT and parentheses, ORDER BY columns and LIMIT. Every other node,
 * and every non-empty property the walker does not know, is refused.
 *
 * The SQL that runs is regenerated from the checked tree, never the client's text: it
 * holds only keywords written here, physical table and column names taken from the
 * relation catalog, and `?` placeholders whose values are bound. So no client text
 * (identifier, alias, literal or comment) reaches SQLite's parser, and anything the
 * parser accepted but the walker did not understand cannot run. Problems name the rule
 * broken, never the statement's text, identifiers, literals or positions. The text's
 * lexical bounds (src/sql/lexical.ts) are checked before the parser runs.
 */
import nodeSqlParser from 'node-sql-parser/build/postgresql.js';
import { PublicError } from '../core/errors.ts';
import { LIMITS } from '../core/limits.ts';
import { BoundedMemo } from '../core/memo.ts';
import { checkLexicalBounds } from './lexical.ts';
import type { SqlRelation, SqlType } from './relations.ts';

type Node = Record<string, unknown>;
type Param = string | number | null;

export interface CheckedStatement {
  /** SQLite text built from the catalog and fixed keywords; literals are `?`. */
  sql: string;
  params: readonly Param[];
  columns: readonly { name: string; type: SqlType }[];
  /** Rows the client may receive. */
  limit: number;
  /** True when no LIMIT was given: the SQL fetches one row more, to know whether rows were cut. */
  capped: boolean;
}

const parser = new nodeSqlParser.Parser();
const GRAMMAR_HINT = 'the SQL profile lists the accepted grammar';

const syntax = (detail: string) => new PublicError('sql-syntax', detail);
const unsupported = (detail: string) => new PublicError('sql-unsupported', detail);
const limit = (detail: string) => new PublicError('sql-limit', detail);

/** A property the walker does not read must be absent or empty (null, false, '', [], or an object of such). */
function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.values(value).every(isEmpty);
  return false;
}

function onlyKeys(node: Node, allowed: readonly string[]): void {
  for (const [key, value] of Object.entries(node)) {
    if (!allowed.includes(key) && !isEmpty(value)) throw unsupported(`The statement uses a clause or modifier outside the accepted grammar; ${GRAMMAR_HINT}.`);
  }
}

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Why an expression node is refused, by its kind. */
function refuse(node: unknown): PublicError {
  const type = isNode(node) ? node.type : undefined;
  if (type === 'aggr_func') return unsupported('Aggregates (COUNT, SUM…) are not supported; fetch the rows and aggregate them yourself.');
  if (type === 'function' || type === 'cast' || type === 'case' || type === 'extract' || type === 'interval' || type === 'window_func') {
    return unsupported('Functions, casts and CASE are not supported; compare columns with literals.');
  }
  if (type === 'select' || (isNode(node) && 'ast' in node)) return unsupported('Subqueries are not supported; send one SELECT over one relation.');
  if (type === 'var' || type === 'param') return unsupported('Parameters are not supported; write the values as literals.');
  if (type === 'binary_expr' || type === 'unary_expr') return unsupported(`The statement uses an operator outside the accepted grammar; ${GRAMMAR_HINT}.`);
  return unsupported(`The statement uses an expression outside the accepted grammar; ${GRAMMAR_HINT}.`);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?$/;

function validDate(value: string): boolean {
  const m = DATE.exec(value.slice(0, 10));
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  return d.getUTCFullYear() === +m[1]! && d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]!;
}

/** A literal's bound value and type, or undefined when the node is not a literal. */
function literal(node: Node): { value: Param; type: SqlType } | undefined {
  switch (node.type) {
    case 'number': {
      const value = Number(node.value);
      if (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value)))
        throw unsupported('A numeric literal is out of range; numbers must be finite and integers within ±2^53.');
      return { value, type: Number.isInteger(value) && !String(node.value).includes('.') ? 'integer' : 'real' };
    }
    case 'single_quote_string':
      return { value: String(node.value), type: 'text' };
    case 'bool':
      return { value: node.value === true ? 1 : 0, type: 'boolean' };
    case 'null':
      return { value: null, type: 'null' };
    case 'date':
      if (typeof node.value !== 'string' || !DATE.test(node.value) || !validDate(node.value))
        throw syntax('A DATE literal must hold a real date written YYYY-MM-DD.');
      return { value: node.value, type: 'date' };
    case 'timestamp':
      if (typeof node.value !== 'string' || !TIMESTAMP.test(node.value) || !validDate(node.value))
        throw syntax('A TIMESTAMP literal must hold a date-time written YYYY-MM-DD HH:MM[:SS].');
      return { value: node.value, type: 'text' };
    default:
      return undefined;
  }
}

const COMPARISONS = new Set(['=', '<>', '!=', '<', '<=', '>', '>=']);

class Walker {
  readonly params: Param[] = [];
  predicates = 0;
  readonly relation: SqlRelation;
  private readonly qualifiers: Set<string>;
  private readonly aliased: boolean;

  constructor(relation: SqlRelation, alias: string | null) {
    this.relation = relation;
    // As in PostgreSQL, an alias hides the relation's own name.
    this.qualifiers = new Set(alias ? [alias.toLowerCase()] : [relation.name]);
    this.aliased = alias !== null;
  }

  identifier(value: unknown): string {
    const name = isNode(value) && isNode(value.expr) ? value.expr.value : value;
    if (typeof name !== 'string') throw refuse(value);
    return name;
  }

  /** A column reference → the catalog column, or undefined for `*`. */
  column(node: Node): { name: string; type: SqlType } | undefined {
    onlyKeys(node, ['type', 'schema', 'table', 'column', 'parentheses']);
    const table = isNode(node.table) ? node.table.value : node.table;
    const schema = isNode(node.schema) ? node.schema.value : node.schema;
    const wrong = new PublicError('sql-unknown-name', 'A column is qualified by a name that is not the relation in FROM or its alias.');
    if (table !== null && table !== undefined && (typeof table !== 'string' || !this.qualifiers.has(table.toLowerCase()))) throw wrong;
    if (schema !== null && schema !== undefined && (typeof schema !== 'string' || schema.toLowerCase() !== this.relation.schema || this.aliased)) throw wrong;
    if (node.column === '*') return undefined;
    const name = this.identifier(node.column).toLowerCase();
    const column = this.relation.columns.find((c) => c.name === name);
    if (!column)
      throw new PublicError(
        'sql-unknown-name',
        'The statement names a column the relation does not have; information_schema.columns and the SQL profile list them.',
      );
    return column;
  }

  /** A comparison operand: a column or a literal. */
  operand(node: unknown): string {
    if (!isNode(node)) throw refuse(node);
    if (node.type === 'column_ref') {
      const column = this.column(node);
      if (!column) throw unsupported('`*` may only stand alone in the projection.');
      return `"${column.name}"`;
    }
    const value = literal(node);
    if (!value) throw refuse(node);
    onlyKeys(node, ['type', 'value', 'parentheses']);
    this.params.push(value.value);
    return '?';
  }

  predicate(node: unknown, depth: number, parentOperator: string | null): string {
    if (depth > LIMITS.sqlExpressionDepthMax)
      throw limit(`The WHERE clause nests boolean operators deeper than ${LIMITS.sqlExpressionDepthMax} levels; flatten it.`);
    if (!isNode(node)) throw refuse(node);
    if (node.type === 'function' && this.isNot(node)) {
      const args = (node.args as Node).value as unknown[];
      return `NOT (${this.predicate(args[0], depth + 1, 'NOT')})`;
    }
    if (node.type === 'unary_expr') {
      onlyKeys(node, ['type', 'operator', 'expr', 'parentheses']);
      if (String(node.operator).toUpperCase() !== 'NOT') throw refuse(node);
      return `NOT (${this.predicate(node.expr, depth + 1, 'NOT')})`;
    }
    if (node.type === 'bool') return this.operand(node);
    if (node.type !== 'binary_expr') throw refuse(node);
    onlyKeys(node, ['type', 'operator', 'left', 'right', 'parentheses']);
    const operator = String(node.operator).toUpperCase();
    if (operator === 'AND' || operator === 'OR') {
      const next = operator === parentOperator && node.parentheses !== true ? depth : depth + 1;
      if (next > LIMITS.sqlExpressionDepthMax)
        throw limit(`The WHERE clause nests boolean operators deeper than ${LIMITS.sqlExpressionDepthMax} levels; flatten it.`);
      return `(${this.predicate(node.left, next, operator)} ${operator} ${this.predicate(node.right, next, operator)})`;
    }
    if (++this.predicates > LIMITS.sqlPredicatesMax)
      throw limit(`The WHERE clause has more than ${LIMITS.sqlPredicatesMax} predicates; use IN lists or fewer conditions.`);
    if (COMPARISONS.has(operator)) return `${this.operand(node.left)} ${operator} ${this.operand(node.right)}`;
    if (operator === 'IS' || operator === 'IS NOT') {
      if (!isNode(node.right) || node.right.type !== 'null') throw unsupported('IS and IS NOT are accepted with NULL only; compare other values with = or <>.');
      return `${this.operand(node.left)} ${operator} NULL`;
    }
    if (operator === 'LIKE' || operator === 'NOT LIKE') return `${this.operand(node.left)} ${operator} ${this.operand(node.right)}`;
    const list = this.list(node.right);
    if (operator === 'IN' || operator === 'NOT IN') {
      if (list.length > LIMITS.sqlInListMax) throw limit(`An IN list holds more than ${LIMITS.sqlInListMax} values; split the query.`);
      const left = this.operand(node.left);
      return `${left} ${operator} (${list.map((v) => this.literalOnly(v)).join(', ')})`;
    }
    if ((operator === 'BETWEEN' || operator === 'NOT BETWEEN') && list.length === 2) {
      return `${this.operand(node.left)} ${operator} ${this.operand(list[0])} AND ${this.operand(list[1])}`;
    }
    throw refuse(node);
  }

  private isNot(node: Node): boolean {
    const name = isNode(node.name) && Array.isArray(node.name.name) ? node.name.name : [];
    const args = isNode(node.args) ? node.args : undefined;
    const only = name.length === 1 && isNode(name[0]) && String(name[0].value).toUpperCase() === 'NOT';
    return only && args?.type === 'expr_list' && Array.isArray(args.value) && args.value.length === 1 && isEmpty(node.over);
  }

  private list(node: unknown): unknown[] {
    if (!isNode(node)) throw refuse(node);
    if (node.type !== 'expr_list' || !Array.isArray(node.value)) throw refuse(node);
    for (const item of node.value) if (isNode(item) && ('ast' in item || item.type === 'select')) throw refuse(item);
    onlyKeys(node, ['type', 'value', 'parentheses']);
    return node.value;
  }

  private literalOnly(node: unknown): string {
    if (isNode(node) && node.type === 'column_ref') throw unsupported('IN lists hold literals only.');
    return this.operand(node);
  }
}

function parse(text: string): Node {
  // Before the parser, whose backtracking is exponential in unclosed nesting.
  checkLexicalBounds(text);
  let ast: unknown;
  try {
    ast = parser.astify(text, { database: 'postgresql' });
  } catch {
    // The parser's message quotes the input and its position: it is dropped, never shown.
    throw syntax(`The body is not one SQL statement this endpoint can parse; ${GRAMMAR_HINT}.`);
  }
  const statements = Array.isArray(ast) ? ast : [ast];
  if (statements.length > 1) throw unsupported('The body holds more than one statement; send exactly one SELECT.');
  const statement = statements[0];
  if (!isNode(statement)) throw syntax(`The body holds no SQL statement; ${GRAMMAR_HINT}.`);
  return statement;
}

/**
 * The relation a FROM clause names. Names compare case-insensitively (unquoted
 * identifiers fold, as in PostgreSQL); an unqualified `writing` resolves through the
 * search path to `public.writing`, while the information_schema relations need their schema.
 */
function relationNamed(relations: readonly SqlRelation[], schema: string | null, name: string): SqlRelation | undefined {
  const s = schema?.toLowerCase() ?? 'public';
  const n = name.toLowerCase();
  return relations.find((r) => r.schema === s && r.name === n);
}

function checkSelect(statement: Node, relations: readonly SqlRelation[]): CheckedStatement {
  if (statement.type !== 'select') throw unsupported('Only SELECT is accepted; writes, schema changes and other statements are refused.');
  if (!isEmpty(statement.with)) throw unsupported('Common table expressions (WITH) are not supported; send one SELECT over one relation.');
  if (!isEmpty(statement._next) || !isEmpty(statement.set_op)) throw unsupported('UNION, INTERSECT and EXCEPT are not supported; send one SELECT.');
  if (!isEmpty(statement.groupby) || !isEmpty(statement.having))
    throw unsupported('GROUP BY and HAVING are not supported; fetch the rows and group them yourself.');
  if (!isEmpty(statement.distinct)) throw unsupported('DISTINCT is not supported; select the rows and deduplicate them yourself.');
  onlyKeys(statement, ['type', 'columns', 'from', 'where', 'orderby', 'limit']);

  const from = statement.from;
  if (!Array.isArray(from) || from.length === 0)
    throw unsupported('Name one relation in FROM: public.writing, information_schema.tables or information_schema.columns.');
  if (from.length > 1 || from.some((f) => isNode(f) && !isEmpty(f.join))) throw unsupported('Joins are not supported; query one relation at a time.');
  const source = from[0] as Node;
  if ('expr' in source && !isEmpty(source.expr)) throw unsupported('Subqueries are not supported; send one SELECT over one relation.');
  onlyKeys(source, ['db', 'table', 'as']);
  const relation = typeof source.table === 'string' ? relationNamed(relations, typeof source.db === 'string' ? source.db : null, source.table) : undefined;
  if (!relation)
    throw new PublicError(
      'sql-unknown-name',
      'The statement names a relation that is not published; the relations are public.writing, information_schema.tables and information_schema.columns.',
    );
  const walker = new Walker(relation, typeof source.as === 'string' ? source.as : null);

  // Projection: columns (`*` expanded) and literals, each with an optional alias.
  const selected: { sql: string; name: string; type: SqlType; column?: string }[] = [];
  for (const item of statement.columns as unknown[]) {
    if (!isNode(item) || !isNode(item.expr)) throw refuse(item);
    onlyKeys(item, ['type', 'expr', 'as']);
    const alias = item.as === null || item.as === undefined ? undefined : walker.identifier(item.as);
    const expr = item.expr;
    if (expr.type === 'column_ref') {
      const column = walker.column(expr);
      if (!column) {
        if (alias !== undefined) throw unsupported('`*` cannot take an alias.');
        for (const c of relation.columns) selected.push({ sql: `"${c.name}"`, name: c.name, type: c.type, column: c.name });
      } else selected.push({ sql: `"${column.name}"`, name: alias ?? column.name, type: column.type, column: column.name });
    } else {
      const value = literal(expr);
      if (!value) throw refuse(expr);
      onlyKeys(expr, ['type', 'value', 'parentheses']);
      walker.params.push(value.value);
      selected.push({ sql: '?', name: alias ?? '?column?', type: value.type });
    }
    if (selected.length > LIMITS.sqlColumnsMax)
      throw limit(`The statement returns more than ${LIMITS.sqlColumnsMax} columns (\`*\` counts each); select fewer.`);
  }

  const where = isEmpty(statement.where) ? '' : ` WHERE ${walker.predicate(statement.where, 1, null)}`;

  // ORDER BY: columns of the relation, output aliases, or 1-based positions of selected columns.
  const keys: string[] = [];
  const orderby = isEmpty(statement.orderby) ? [] : (statement.orderby as unknown[]);
  if (orderby.length > LIMITS.sqlOrderKeysMax) throw limit(`ORDER BY takes at most ${LIMITS.sqlOrderKeysMax} keys.`);
  for (const key of orderby) {
    if (!isNode(key) || !isNode(key.expr)) throw refuse(key);
    onlyKeys(key, ['expr', 'type']);
    const direction = key.type === null || key.type === undefined ? '' : String(key.type).toUpperCase();
    if (direction !== '' && direction !== 'ASC' && direction !== 'DESC') throw refuse(key);
    let column: string | undefined;
    const expr = key.expr;
    if (expr.type === 'number') {
      const position = Number(expr.value);
      if (!Number.isInteger(position) || position < 1 || position > selected.length)
        throw unsupported('An ORDER BY number must name one of the selected columns, counting from 1.');
      column = selected[position - 1]!.column;
      if (column === undefined) throw unsupported('ORDER BY must name a column, not a literal.');
    } else if (expr.type === 'column_ref') {
      const name = expr.column === '*' || expr.table ? undefined : walker.identifier(expr.column);
      const byAlias = name === undefined ? undefined : selected.find((s) => s.name === name && s.column !== undefined && s.name !== s.column);
      column = byAlias?.column ?? walker.column(expr)?.name;
      if (column === undefined) throw unsupported('ORDER BY must name a column, not `*`.');
    } else throw refuse(expr);
    keys.push(`"${column}"${direction ? ` ${direction}` : ''}`);
  }

  // LIMIT n, 0 ≤ n ≤ 100; no OFFSET.
  let rows: number = LIMITS.sqlRowsMax;
  let capped = true;
  const limitNode = statement.limit;
  if (!isEmpty(limitNode)) {
    if (!isNode(limitNode)) throw refuse(limitNode);
    onlyKeys(limitNode, ['seperator', 'value']);
    const values = Array.isArray(limitNode.value) ? limitNode.value : [];
    if (limitNode.seperator !== '' || values.length !== 1) throw unsupported('OFFSET is not supported; page with WHERE on the ORDER BY columns instead.');
    const value = values[0] as Node;
    if (!isNode(value) || value.type !== 'number' || !Number.isInteger(Number(value.value)) || Number(value.value) < 0) {
      throw isNode(value) && (value.type === 'var' || value.type === 'param') ? refuse(value) : unsupported('LIMIT takes a whole number from 0 to 100.');
    }
    rows = Number(value.value);
    if (rows > LIMITS.sqlRowsMax) throw limit(`LIMIT is at most ${LIMITS.sqlRowsMax} rows.`);
    capped = false;
  }

  const sql =
    `SELECT ${selected.map((s) => s.sql).join(', ')} FROM "${relation.physical}"${where}` +
    `${keys.length ? ` ORDER BY ${keys.join(', ')}` : ''} LIMIT ${capped ? rows + 1 : rows}`;
  return { sql, params: walker.params, columns: selected.map(({ name, type }) => ({ name, type })), limit: rows, capped };
}

/**
 * Checks one statement against the relation catalog (RELATIONS, src/sql/relations.ts,
 * passed in so a SQL worker need not load the collection declarations) and returns what
 * to run; throws a PublicError naming the rule it broke.
 */
export function checkStatement(text: string, relations: readonly SqlRelation[]): CheckedStatement {
  return checkSelect(parse(text), relations);
}

/** `checkStatement` remembering the last checked statements by their exact text. */
export class StatementCache {
  private readonly memo: BoundedMemo<CheckedStatement>;

  constructor(relations: readonly SqlRelation[], max: number = LIMITS.sqlStatementCacheEntries) {
    this.memo = new BoundedMemo(max, (text) => checkStatement(text, relations));
  }

  check(text: string): CheckedStatement {
    return this.memo.get(text);
  }
}
