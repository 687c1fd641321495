/**
 * GraphQL over HTTP: `POST /graphql` (one operation per request) and `GET /graphql`
 * (queries only), served by graphql-http over the schema derived from the declarations.
 * In order, before execution: the CORS preflight, the `GraphQL-API-Version` header (v1),
 * the document size (64 KiB, 413), then — inside graphql-http, which owns media types,
 * request parsing and the GraphQL-over-HTTP status rules — parsing with a token limit,
 * a mutation over GET (405), validation, depth, alias and static cost limits, and the
 * client's cost budget for the window (429). Every answer carries the operation's cost and
 * the RateLimit fields of the cost budget; errors are the standard `errors` array, never
 * internals (src/graphql/errors.ts).
 */
import { createHandler, type OperationArgs, type Request as GraphQLHttpRequest, type Response as GraphQLHttpResponse } from 'graphql-http';
import { GraphQLError, getOperationAST, parse, specifiedRules, validate, type DocumentNode } from 'graphql';
import { LIMITS } from '../src/core/limits.ts';
import { BoundedMemo } from '../src/core/memo.ts';
import type { QueryCore } from '../src/core/query.ts';
import { measureOperation } from '../src/graphql/cost.ts';
import { publicError } from '../src/graphql/errors.ts';
import { rootValue } from '../src/graphql/resolvers.ts';
import { GRAPHQL_API_VERSION, graphqlSchema } from '../src/graphql/schema.ts';
import type { Answer, RequestFacts } from '../src/http/answer.ts';
import { AnswerCache } from '../src/http/answer-cache.ts';
import { preflight } from '../src/http/cors.ts';
import { CONTENT_SIGNAL, CONTENT_USAGE } from '../src/http/headers.ts';
import { RateLimiter, type CounterStore } from '../src/http/rate-limit.ts';

const ALLOW = 'GET, POST, OPTIONS';
const POLICY_NAME = 'graphql';
const JSON_ERRORS_TYPE = 'application/graphql-response+json; charset=utf-8';

export interface GraphqlOptions {
  counters?: CounterStore;
  /** Cost points per client per window; the limit's value unless an operator sets another. */
  budget?: number;
  /** Byte budget of remembered results (`ANSWER_CACHE_BYTES`); 0 turns it off. */
  cacheBytes?: number;
  now?: () => number;
  clientOf?: (request: RequestFacts) => string;
}

/** What one request's checks learned, for its response headers and the result cache. */
interface Demand {
  cost: number;
  rateLimit?: string;
  /** The result cache's key, once the operation is admitted to run. */
  key?: string;
  /** Whether the answer came from the cache (it is not stored again). */
  replayed?: boolean;
  /** Whether execution finished without errors: only such results are remembered. */
  clean?: boolean;
}

/** A remembered result as graphql-http serialised it for one `Accept`: the body, its content type, and the operation's cost. */
interface Remembered {
  body: string;
  contentType: string;
  cost: number;
}

/**
 * The result cache's key; undefined (not remembered) for variables JSON cannot write back,
 * such as nesting deep enough to exhaust the stack (found by the fuzz campaign: a 500).
 */
function resultKey(accept: string | null, operationName: string | null | undefined, variables: unknown, query: string): string | undefined {
  try {
    return `${accept ?? ''}\u0000${operationName ?? ''}\u0000${JSON.stringify(variables ?? {})}\u0000${query}`;
  } catch {
    return undefined;
  }
}

const rememberedBytes = (value: Remembered) => 2 * (value.body.length + value.contentType.length) + 96;

/** A document as parsed and validated: its syntax tree, unless parsing failed, and its errors. */
interface CheckedDocument {
  document?: DocumentNode;
  errors: readonly GraphQLError[];
}

const encoder = new TextEncoder();

function errorsAnswer(status: number, headers: Record<string, string>, ...errors: GraphQLError[]): Answer {
  return { status, headers: { ...headers, 'Content-Type': JSON_ERRORS_TYPE }, body: encoder.encode(JSON.stringify({ errors })) };
}

const limitError = (code: string, message: string) => new GraphQLError(message, { extensions: { code } });

/**
 * What a checked document holds beyond its text (the memo's key): the syntax tree with
 * its token locations, and the validation errors with their stacks. Measured on Node 24
 * (`--expose-gc`, heap used after a full GC): 63–119 bytes of tree per character of the
 * document (small documents cost the most per character), and about 3 KiB per error.
 */
const checkedDocumentBytes = (checked: CheckedDocument, text: string): number => 4096 + 128 * text.length + 4096 * checked.errors.length;

export function createGraphqlHandler(core: QueryCore, options: GraphqlOptions = {}): (request: RequestFacts, body: Uint8Array | null) => Promise<Answer> {
  const { schema } = graphqlSchema();
  const root = rootValue(core);
  const budget = options.budget ?? LIMITS.graphqlCostPerWindow;
  const limiter = new RateLimiter({
    store: options.counters,
    limit: budget,
    windowSeconds: LIMITS.graphqlWindowSeconds,
    policy: POLICY_NAME,
    now: options.now,
  });
  const clientOf = options.clientOf ?? (() => 'anonymous');
  const baseHeaders: Record<string, string> = {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': 'GraphQL-API-Version, GraphQL-Cost, GraphQL-Cost-Limit, RateLimit, RateLimit-Policy, Retry-After',
    'Cache-Control': 'no-store',
    'Content-Usage': CONTENT_USAGE,
    'Content-Signal': CONTENT_SIGNAL,
    'GraphQL-API-Version': GRAPHQL_API_VERSION,
    'GraphQL-Cost-Limit': String(LIMITS.graphqlCostMax),
    'RateLimit-Policy': `"${POLICY_NAME}";q=${budget};w=${LIMITS.graphqlWindowSeconds}`,
    Vary: 'Accept, GraphQL-API-Version',
  };
  // Parsing and validation depend only on the text; remembered per document, bounded.
  const check = (text: string): CheckedDocument => {
    let document: DocumentNode;
    try {
      document = parse(text, { maxTokens: LIMITS.graphqlTokensMax });
    } catch (error) {
      return { errors: [error instanceof GraphQLError ? error : new GraphQLError('The document could not be parsed.')] };
    }
    return { document, errors: validate(schema, document, specifiedRules) };
  };
  const documents = new BoundedMemo<CheckedDocument>(LIMITS.graphqlDocumentCacheEntries, check, {
    bytes: LIMITS.graphqlDocumentCacheBytes,
    valueBytes: checkedDocumentBytes,
  });
  const demands = new WeakMap<GraphQLHttpRequest<RequestFacts, undefined>, Demand>();
  // The image never changes under a runtime and resolvers read nothing else, so a query's
  // result is a pure function of its text, operation name, variables and the media type
  // Accept negotiates: replaying it is exact. Cost and quota are still charged each time.
  const results = new AnswerCache<Remembered>(options.cacheBytes ?? LIMITS.graphqlAnswerCacheBytes, LIMITS.answerCacheAdmissionSlots, rememberedBytes);

  const handler = createHandler<RequestFacts, undefined>({
    schema,
    rootValue: root,
    formatError: publicError,
    onSubscribe: async (req, params): Promise<OperationArgs<undefined> | readonly GraphQLError[] | GraphQLHttpResponse> => {
      const record: Demand = { cost: 1 };
      demands.set(req, record);
      // Every document spends at least one point, even one that fails to parse or validate, so floods of any kind are bounded.
      const spend = async (points: number): Promise<GraphQLHttpResponse | undefined> => {
        const quota = await limiter.take(clientOf(req.raw), Math.max(1, points));
        record.rateLimit = quota.header;
        if (quota.allowed) return undefined;
        const error = limitError(
          'RATE_LIMITED',
          `This client spent its ${budget} cost points for the ${LIMITS.graphqlWindowSeconds}-second window; retry after the time in Retry-After.`,
        );
        return [
          JSON.stringify({ errors: [error] }),
          { status: 429, statusText: 'Too Many Requests', headers: { 'content-type': JSON_ERRORS_TYPE, 'retry-after': String(quota.reset) } },
        ];
      };
      record.key = resultKey(req.raw.header('Accept'), params.operationName, params.variables, params.query);
      const hit = record.key === undefined ? undefined : results.get(record.key);
      if (hit) {
        // Remembered with the cost it was charged, which the same text and variables always have.
        record.cost = hit.cost;
        record.replayed = true;
        return (await spend(hit.cost)) ?? [hit.body, { status: 200, statusText: 'OK', headers: { 'content-type': hit.contentType } }];
      }
      const checked = params.query.length <= LIMITS.graphqlDocumentCacheCharsMax ? documents.get(params.query) : check(params.query);
      if (!checked.document) return (await spend(1)) ?? checked.errors;
      const { document } = checked;
      const operation = getOperationAST(document, params.operationName);
      // Decided before validation errors are returned: with no mutation root a mutation would otherwise be a 400.
      if (operation && operation.operation !== 'query' && req.method === 'GET') {
        return (
          (await spend(1)) ?? [
            JSON.stringify({ errors: [new GraphQLError(`GET carries queries only; this schema has no ${operation.operation} root.`)] }),
            { status: 405, statusText: 'Method Not Allowed', headers: { allow: 'POST', 'content-type': JSON_ERRORS_TYPE } },
          ]
        );
      }
      if (checked.errors.length > 0) return (await spend(1)) ?? checked.errors;
      const demand = measureOperation(schema, document, params.operationName, params.variables);
      if (!demand) return (await spend(1)) ?? [new GraphQLError('The document has no operation of that name.')];
      if (demand.depth > LIMITS.graphqlDepthMax)
        return (await spend(1)) ?? [limitError('DEPTH_LIMIT', `The operation nests ${demand.depth} levels; at most ${LIMITS.graphqlDepthMax} are accepted.`)];
      if (demand.aliases > LIMITS.graphqlAliasesMax)
        return (
          (await spend(1)) ?? [limitError('ALIAS_LIMIT', `The operation uses ${demand.aliases} aliases; at most ${LIMITS.graphqlAliasesMax} are accepted.`)]
        );
      record.cost = demand.cost;
      if (demand.cost > LIMITS.graphqlCostMax) {
        return (
          (await spend(1)) ?? [
            limitError(
              'COST_LIMIT',
              `The operation costs ${demand.cost} points; at most ${LIMITS.graphqlCostMax} are accepted. Ask for fewer nodes (first) or fewer connections.`,
            ),
          ]
        );
      }
      const refused = await spend(demand.cost);
      if (refused) return refused;
      return { schema, document, operationName: params.operationName, variableValues: params.variables, rootValue: root, contextValue: undefined };
    },
    onOperation: (req, _args, result) => {
      const record = demands.get(req);
      if (record) record.clean = !('errors' in result) || result.errors === undefined;
    },
  });

  return async (request, body) => {
    if (request.method === 'OPTIONS') {
      return preflight(ALLOW, { headers: baseHeaders, allowHeaders: 'Accept, Content-Type, GraphQL-API-Version' });
    }
    const version = request.header('GraphQL-API-Version')?.trim() ?? '';
    if (version !== '' && version.split('.')[0] !== GRAPHQL_API_VERSION) {
      return errorsAnswer(
        400,
        baseHeaders,
        limitError(
          'UNSUPPORTED_API_VERSION',
          `This endpoint serves GraphQL API version ${GRAPHQL_API_VERSION}; send GraphQL-API-Version: ${GRAPHQL_API_VERSION} or leave the header out.`,
        ),
      );
    }
    const text = body === null ? '' : Buffer.from(body).toString('utf8');
    const tooLarge =
      (body?.length ?? 0) > LIMITS.graphqlDocumentBytesMax || Buffer.byteLength(request.url.searchParams.get('query') ?? '') > LIMITS.graphqlDocumentBytesMax;
    if (tooLarge) {
      return errorsAnswer(413, baseHeaders, limitError('DOCUMENT_TOO_LARGE', `The request is larger than ${LIMITS.graphqlDocumentBytesMax} bytes.`));
    }
    const req: GraphQLHttpRequest<RequestFacts, undefined> = {
      method: request.method,
      url: request.url.href,
      headers: { get: (name: string) => request.header(name) },
      body: request.method === 'POST' ? text : null,
      raw: request,
      context: undefined,
    };
    const [responseBody, init] = await handler(req);
    const demand = demands.get(req);
    const contentType = (init.headers as Record<string, string> | undefined)?.['content-type'];
    if (demand?.key !== undefined && demand.clean && !demand.replayed && init.status === 200 && responseBody !== null && contentType !== undefined) {
      results.set(demand.key, { body: responseBody, contentType, cost: demand.cost });
    }
    const headers: Record<string, string> = { ...baseHeaders };
    for (const [name, value] of Object.entries(init.headers ?? {}))
      headers[name.replace(/(^|-)([a-z])/g, (_, dash: string, ch: string) => dash + ch.toUpperCase())] = String(value);
    if (demand) headers['GraphQL-Cost'] = String(demand.cost);
    if (demand?.rateLimit) headers.RateLimit = demand.rateLimit;
    if (init.status === 405 && !headers.Allow) headers.Allow = ALLOW;
    return { status: init.status, headers, body: responseBody === null ? null : encoder.encode(responseBody) };
  };
}
