/**
 * GraphQL requests for `/graphql`: valid operations written from the server's own schema
 * (random root fields, arguments of their input types with valid and hostile values,
 * selections walked through objects, unions and interfaces), then mutated at the byte
 * level, or replaced by documents built to cost work: deep nesting, alias floods,
 * fragment cycles, directive floods, huge strings, many operations, the introspection
 * query. Sent as POST JSON envelopes (valid and garbage), or over GET query strings.
 * Canaries (class g) go in string arguments, variables and operation names.
 */
import fc from 'fast-check';
import {
  getIntrospectionQuery,
  getNamedType,
  isAbstractType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { BAD_ESCAPES, bytes, canary, hostileText, mutate, oneOf, percentEncode } from './common.ts';

const GQL_TOKENS = [
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ':',
  '$',
  '@',
  '!',
  '=',
  '...',
  '"',
  '"""',
  '\\',
  '#',
  ',',
  ' ',
  '\n',
  '\u0000',
  '\uFEFF',
  'é',
  '__typename',
  'fragment',
  'on',
  'query',
  'mutation',
  'subscription',
  `"${canary('g')}"`,
  '\\u0000',
  '\\uD800',
];

const graphqlString = (s: string) => JSON.stringify(s);
/** Some of `items`, in order (fc.subarray with bounds clamped to the array). */
const some = <T>(items: readonly T[], min: number, max: number) =>
  fc.subarray([...items], { minLength: Math.min(min, items.length), maxLength: Math.min(max, items.length) });

/** A literal of an input type: mostly valid, sometimes of the wrong kind. */
function inputValue(type: GraphQLInputType, ids: readonly string[], cursors: readonly string[], depth = 0): fc.Arbitrary<string> {
  const wrong = oneOf('null', '"x"', '1', '1.5', 'true', '[]', '{}', 'NOPE', '$undefined');
  if (isNonNullType(type)) return inputValue(type.ofType, ids, cursors, depth);
  if (isListType(type))
    return fc.array(inputValue(type.ofType, ids, cursors, depth + 1), { maxLength: depth > 1 ? 1 : 4 }).map((items) => `[${items.join(', ')}]`);
  let valid: fc.Arbitrary<string>;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    valid =
      depth > 2
        ? fc.constant('{}')
        : some(fields, 0, 4).chain((chosen) =>
            chosen.length === 0
              ? fc.constant('{}')
              : fc
                  .tuple(...chosen.map((f) => inputValue(f.type, ids, cursors, depth + 1).map((v) => `${f.name}: ${v}`)))
                  .map((parts) => `{ ${parts.join(', ')} }`),
          );
  } else if (isEnumType(type)) {
    valid = oneOf(...type.getValues().map((v) => v.name));
  } else {
    switch (type.name) {
      case 'Int':
        valid = fc.oneof(
          fc.integer({ min: -2, max: 120 }).map(String),
          oneOf('0', '100', '101', '2147483647', '2147483648', '-2147483649', '1000', '9999', '10000'),
        );
        break;
      case 'Float':
        valid = fc.oneof(
          fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => String(n).replace('Infinity', '1e400')),
          oneOf('1e400', '-0.0'),
        );
        break;
      case 'Boolean':
        valid = fc.boolean().map(String);
        break;
      case 'ID':
        valid = fc.oneof(
          oneOf(...ids, 'itm_000000000000000000000000').map(graphqlString),
          hostileText(12).map(graphqlString),
          fc.constant(graphqlString(canary('g'))),
        );
        break;
      default:
        valid = fc.oneof(
          { weight: 3, arbitrary: hostileText().map(graphqlString) },
          { weight: 2, arbitrary: fc.constant(graphqlString(canary('g'))) },
          ...(cursors.length > 0
            ? [
                {
                  weight: 2,
                  arbitrary: oneOf(...cursors)
                    .chain((c) => fc.oneof(fc.constant(c), mutate(c, ['=', 'A', '_', '-'])))
                    .map(graphqlString),
                },
              ]
            : []),
          { weight: 1, arbitrary: oneOf('"Drama"', '"Lisbon"', '"2024-01-01"', '""', '"""block\nstring"""', '"\\u0000"', '"\\uD800"', '"\\u{1F600}"') },
        );
    }
  }
  return fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: wrong });
}

/** A selection set on a named output type, `depth` levels at most. */
function selection(type: GraphQLNamedType, schema: GraphQLSchema, ids: readonly string[], cursors: readonly string[], depth: number): fc.Arbitrary<string> {
  if (isAbstractType(type)) {
    const possible = schema.getPossibleTypes(type);
    return some(possible, 1, 3).chain((types) =>
      depth <= 0
        ? fc.constant('{ __typename }')
        : fc
            .tuple(...types.map((t) => selection(t, schema, ids, cursors, depth - 1).map((s) => `... on ${t.name} ${s}`)))
            .map((parts) => `{ __typename ${parts.join(' ')} }`),
    );
  }
  if (!isObjectType(type)) return fc.constant('');
  const fields = Object.values(type.getFields());
  const leaves = fields.filter((f) => isLeafType(getNamedType(f.type)));
  const chosen = depth <= 0 ? some(leaves.length > 0 ? leaves : fields.slice(0, 1), 1, 3) : some(fields, 1, 4);
  return chosen.chain((list) => fc.tuple(...list.map((f) => field(f, schema, ids, cursors, depth - 1))).map((parts) => `{ ${parts.join(' ')} }`));
}

function field(
  f: GraphQLField<unknown, unknown>,
  schema: GraphQLSchema,
  ids: readonly string[],
  cursors: readonly string[],
  depth: number,
): fc.Arbitrary<string> {
  const named = getNamedType(f.type);
  const args = some(f.args, 0, 5).chain((chosen) =>
    chosen.length === 0
      ? fc.constant('')
      : fc.tuple(...chosen.map((a) => inputValue(a.type, ids, cursors).map((v) => `${a.name}: ${v}`))).map((parts) => `(${parts.join(', ')})`),
  );
  // Required arguments must be present for the document to be valid; add them when the subset left them out.
  const required = f.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined);
  const withRequired =
    required.length === 0
      ? args
      : fc.tuple(...required.map((a) => inputValue(a.type, ids, cursors).map((v) => `${a.name}: ${v}`))).map((parts) => `(${parts.join(', ')})`);
  const alias = fc.option(oneOf('a', 'b', 'x1', 'nodes', '__typename'), { nil: undefined, freq: 6 });
  const sub =
    isCompositeType(named) && !isScalarType(named)
      ? depth < 0
        ? fc.constant('{ __typename }')
        : selection(named, schema, ids, cursors, depth)
      : fc.constant('');
  return fc
    .tuple(alias, required.length > 0 ? withRequired : args, sub)
    .map(([a, argText, subText]) => `${a ? `${a}: ` : ''}${f.name}${argText} ${subText}`.trim());
}

/** A valid-looking query operation over the schema's Query fields. */
function operation(schema: GraphQLSchema, ids: readonly string[], cursors: readonly string[]): fc.Arbitrary<string> {
  const query = schema.getQueryType()!;
  const roots = Object.values(query.getFields());
  return fc
    .tuple(some(roots, 1, 3), oneOf(1, 2, 3, 4), fc.option(oneOf('Q', 'Fuzz', canary('g')), { nil: undefined }))
    .chain(([fields, depth, name]) =>
      fc.tuple(...fields.map((f) => field(f, schema, ids, cursors, depth))).map((parts) => `${name ? `query ${name} ` : ''}{ ${parts.join(' ')} }`),
    );
}

const repeat = (n: number, make: (i: number) => string, separator = ' ') => Array.from({ length: n }, (_, i) => make(i)).join(separator);

/** Documents built to cost parsing, validation or execution work. */
const costly = fc
  .tuple(
    oneOf(2, 12, 13, 30, 31, 100, 1000, 5000, 20000),
    oneOf('depth', 'introspection', 'aliases', 'connections', 'cycle', 'directives', 'string', 'tokens', 'operations', 'fragments', 'lists'),
  )
  .map(([n, shape]) => {
    switch (shape) {
      case 'depth':
        return `{ ${'a { '.repeat(Math.min(n, 5000))}b${' }'.repeat(Math.min(n, 5000))} }`;
      case 'introspection':
        return `{ __schema { types { fields { type { ${'ofType { '.repeat(Math.min(n, 300))}name${' }'.repeat(Math.min(n, 300))} } } } } }`;
      case 'aliases':
        return `{ ${repeat(n, (i) => `a${i}: __typename`)} }`;
      case 'connections':
        return `{ ${repeat(Math.min(n, 2000), (i) => `c${i}: movies(first: 100, includeFacets: true) { nodes { title cast genres } facets { name values { value count } } totalCount }`)} }`;
      case 'cycle':
        return '{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }';
      case 'directives':
        return `{ __typename ${'@skip(if: false) '.repeat(n)}}`;
      case 'string':
        return `{ movies(filter: { q: ${graphqlString('a'.repeat(n * 4))} }) { totalCount } }`;
      case 'tokens':
        return `{ ${'__typename '.repeat(n)}}`;
      case 'operations':
        return repeat(Math.min(n, 2000), (i) => `query Q${i} { __typename }`);
      case 'fragments':
        return `{ ...F0 } ${repeat(Math.min(n, 2000), (i) => `fragment F${i} on Query { __typename ...F${i + 1} }`)} fragment F${Math.min(n, 2000)} on Query { __typename }`;
      default:
        return `{ movies(orderBy: [${repeat(Math.min(n, 5000), () => '{ field: TITLE, direction: ASC }', ', ')}]) { totalCount } }`;
    }
  });

const FIXED = [
  '',
  ' ',
  '{',
  '}',
  '{}',
  '{ }',
  'query',
  '{ __typename }',
  'mutation { x }',
  'subscription { x }',
  '{ nope }',
  'query A { __typename } query B { __typename }',
  'query($v: Int) { __typename }',
  '{ __typename @unknown }',
  '{ __typename @include(if: $nope) }',
  '{ ...Missing }',
  'fragment F on Query { __typename }',
  '{ contentLookup(canonicalId: "x") { __typename } }',
  '{ __type(name: "Query") { name fields { name args { name type { name } } } } }',
  '#comment only',
  '"""desc""" query { __typename }',
  'extend type Query { x: Int }',
  'schema { query: Query }',
];

/** A document, as text (mutations turn it into arbitrary bytes later). */
export function graphqlDocument(schema: GraphQLSchema | undefined, ids: readonly string[], cursors: readonly string[]): fc.Arbitrary<string> {
  const valid = schema ? operation(schema, ids, cursors) : oneOf(...FIXED);
  return fc.oneof({ weight: 8, arbitrary: valid }, { weight: 2, arbitrary: oneOf(...FIXED, getIntrospectionQuery()) }, { weight: 2, arbitrary: costly });
}

/** Variables: a JSON object with values of the right and wrong shapes, or not an object at all. */
const variables = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .dictionary(
        oneOf('v', 'after', 'first', 'filter', 'x', '__proto__', canary('g')),
        fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(canary('g')), hostileText()),
      )
      .map((o) => JSON.stringify(o)),
  },
  {
    weight: 1,
    arbitrary: oneOf(
      'null',
      '[]',
      '[1]',
      '"x"',
      '1',
      '{',
      '{"a":',
      `"${canary('g')}"`,
      `{"v":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      '{"__proto__":{"polluted":"CANARYgzzzzzzzzzz"}}',
    ),
  },
);

/** The POST body: a JSON envelope around the document, or something that is not one. */
export function graphqlPostBody(schema: GraphQLSchema | undefined, ids: readonly string[], cursors: readonly string[]): fc.Arbitrary<string> {
  const doc = graphqlDocument(schema, ids, cursors);
  const envelope = fc
    .tuple(
      doc,
      fc.option(variables, { nil: undefined }),
      fc.option(oneOf('Q', 'Fuzz', 'B', '', canary('g')), { nil: undefined }),
      fc.option(oneOf('{}', '{"persistedQuery":{"version":1,"sha256Hash":"x"}}', 'null', '1'), { nil: undefined }),
    )
    .map(
      ([query, vars, operationName, extensions]) =>
        `{"query":${JSON.stringify(query)}${vars === undefined ? '' : `,"variables":${vars}`}${operationName === undefined ? '' : `,"operationName":${JSON.stringify(operationName)}`}${extensions === undefined ? '' : `,"extensions":${extensions}`}}`,
    );
  const garbage = oneOf(
    '',
    'null',
    '{}',
    '[]',
    '"x"',
    '1',
    '{"query":5}',
    '{"query":null}',
    '{"query":["{ __typename }"]}',
    '{"query":{}}',
    '[{"query":"{ __typename }"}]',
    '{"query":"{ __typename }","query":"{ nope }"}',
    '{"query":"{ __typename }","variables":"x"}',
    '{"query":"{ __typename }","variables":[1]}',
    '{"query":"{ __typename }","operationName":5}',
    '{"query":"{ __typename }","__proto__":{"x":1}}',
    `{"query":"{ __typename }"${' '.repeat(70000)}}`,
    `{"query":${'['.repeat(10000)}${']'.repeat(10000)}}`,
    '{"query":"{ __typename }"} trailing',
    '\uFEFF{"query":"{ __typename }"}',
    '{"query":"\\ud800"}',
  );
  return fc.oneof(
    { weight: 10, arbitrary: envelope.map(bytes) },
    { weight: 4, arbitrary: envelope.chain((e) => mutate(bytes(e), GQL_TOKENS.map(bytes))) },
    { weight: 1, arbitrary: garbage.map(bytes) },
    { weight: 1, arbitrary: doc.map(bytes) },
  );
}

/** The query string of a GET: the document, variables and operation name, encoded (or not quite). */
export function graphqlGetQuery(schema: GraphQLSchema | undefined, ids: readonly string[], cursors: readonly string[]): fc.Arbitrary<string> {
  const doc = graphqlDocument(schema, ids, cursors);
  return fc
    .tuple(
      doc,
      fc.option(variables, { nil: undefined }),
      fc.option(oneOf('Q', '', canary('g')), { nil: undefined }),
      fc.option(oneOf(...BAD_ESCAPES), { nil: undefined }),
    )
    .chain(([query, vars, name, bad]) => {
      const pairs = [`query=${percentEncode(bytes(query))}${bad ?? ''}`];
      if (vars !== undefined) pairs.push(`variables=${percentEncode(bytes(vars))}`);
      if (name !== undefined) pairs.push(`operationName=${percentEncode(bytes(name))}`);
      return fc.oneof(
        { weight: 8, arbitrary: fc.constant(`?${pairs.join('&')}`) },
        { weight: 1, arbitrary: fc.constant(`?${pairs.join('&')}&query=${percentEncode('{ __typename }')}`) },
        { weight: 1, arbitrary: mutate(`?${pairs.join('&')}`, ['%', '&', '=', '+', '%00', '%ED%A0%80']) },
      );
    });
}
