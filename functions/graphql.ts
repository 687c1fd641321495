/**
 * GraphQL over HTTP: `POST /graphql` (one operation per request) and `GET /graphql`
 * (queries only), served by graphql-http over the schema derived from the declarations.
 * In order, before execution: the CORS preflight, the `GraphQL-API-Version` header (v1),
 * the document size (64 KiB, 413), then — inside graphql-http, which owns media types,
 * request parsing and the GraphQL-over-HTTP status rules — parsing with a token limit,
 * a mutation over GET (405), validation, depth, alias and static cost limits, and the
 * client's cost budget for the window (429). Every answer carries the operation's cost and
 * the RateLimit fields of the cost budget; errors are the standard `errors` array, never
 * internals (src/graphql/errors.ts). A request asked before with the same words (after the
 * version and size checks) is answered from what it was answered then, its cost charged
 * again (src/graphql/replay.ts).
 */
import { createHandler, type OperationArgs, type Request as GraphQLHttpRequest, type Response as GraphQLHttpResponse } from 'graphql-http';
import { GraphQLError, getOperationAST, parse, specifiedRules, validate, type DocumentNode } from 'graphql';
import { LIMITS } from '../src/core/limits.ts';
import { BoundedMemo } from '../src/core/memo.ts';
import type { QueryCore } from '../src/core/query.ts';
import { measureOperation } from '../src/graphql/cost.ts';
import { publicError } from '../src/graphql/errors.ts';
import { replayed, replayKey, rememberedBytes, searchOf, type RememberedAnswer } from '../src/graphql/replay.ts';
import { rootValue } from '../src/graphql/resolvers.ts';
import { GRAPHQL_API_VERSION, graphqlSchema } from '../src/graphql/schema.ts';
import type { Answer, RequestFacts } from '../src/http/answer.ts';
import { AnswerCache } from '../src/http/answer-cache.ts';
import { preflight } from '../src/http/cors.ts';
import { CONTENT_SIGNAL, CONTENT_USAGE } from '../src/http/headers.ts';
import { RateLimiter, settle, type CounterStore, type Quota } from '../src/http/rate-limit.ts';
import { secured } from '../src/http/security.ts';
import { URLS } from '../src/urls.ts';

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

/** What one request's checks learned, for its response headers and the answer cache. */
interface Demand {
  cost: number;
  rateLimit?: string;
  /** Whether execution finished without errors: only such results are remembered. */
  clean?: boolean;
}

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

/** The handler: an Answer, or a Promise of one when the operation runs (a replay with the in-process budget store answers at once). */
export type GraphqlHandler = (request: RequestFacts, body: Uint8Array | null) => Answer | Promise<Answer>;

export function createGraphqlHandler(core: QueryCore, options: GraphqlOptions = {}): GraphqlHandler {
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
  // The image never changes under a runtime and resolvers read nothing else, so an answer
  // is a pure function of the request's words (src/graphql/replay.ts): replaying it is
  // exact. Cost and quota are still charged each time.
  const answers = new AnswerCache<RememberedAnswer>(options.cacheBytes ?? LIMITS.graphqlAnswerCacheBytes, LIMITS.answerCacheAdmissionSlots, rememberedBytes);
  const siteUrl = core.image.siteUrl;

  /** The 429 of a spent budget, as graphql-http hands a response back. */
  const rateLimited = (quota: Quota): GraphQLHttpResponse => {
    const error = limitError(
      'RATE_LIMITED',
      `This client spent its ${budget} cost points for the ${LIMITS.graphqlWindowSeconds}-second window; retry after the time in Retry-After.`,
    );
    return [
      JSON.stringify({ errors: [error] }),
      { status: 429, statusText: 'Too Many Requests', headers: { 'content-type': JSON_ERRORS_TYPE, 'retry-after': String(quota.reset) } },
    ];
  };

  /**
   * The answer to a response graphql-http made: the endpoint's headers, the response's own
   * (capitalised), the operation's cost and the client's count, last; with the security
   * headers of the path, as the dispatcher would add them, so a remembered one leaves as it is.
   */
  const answerOf = ([responseBody, init]: GraphQLHttpResponse, demand: Demand | undefined): Answer => {
    const headers: Record<string, string> = { ...baseHeaders };
    for (const [name, value] of Object.entries(init.headers ?? {}))
      headers[name.replace(/(^|-)([a-z])/g, (_, dash: string, ch: string) => dash + ch.toUpperCase())] = String(value);
    if (demand) headers['GraphQL-Cost'] = String(demand.cost);
    if (demand?.rateLimit) headers.RateLimit = demand.rateLimit;
    if (init.status === 405 && !headers.Allow) headers.Allow = ALLOW;
    return { status: init.status, headers: secured(headers, URLS.graphql, siteUrl), body: responseBody === null ? null : encoder.encode(responseBody) };
  };

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
        return quota.allowed ? undefined : rateLimited(quota);
      };
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

  /** The full path: graphql-http parses the request and runs the operation; a clean 200 is remembered by `key`. */
  const computed = async (request: RequestFacts, text: string, key: string): Promise<Answer> => {
    const req: GraphQLHttpRequest<RequestFacts, undefined> = {
      method: request.method,
      url: request.url.href,
      headers: { get: (name: string) => request.header(name) },
      body: request.method === 'POST' ? text : null,
      raw: request,
      context: undefined,
    };
    const response = await handler(req);
    const demand = demands.get(req);
    const answer = answerOf(response, demand);
    if (demand?.clean && answer.status === 200 && answer.body !== null && answer.headers.RateLimit !== undefined) {
      const { RateLimit: _count, ...fixed } = answer.headers;
      answers.set(key, { body: answer.body, fixed, cost: demand.cost });
    }
    return answer;
  };

  return (request, body) => {
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
    const tooLarge =
      (body?.length ?? 0) > LIMITS.graphqlDocumentBytesMax ||
      (searchOf(request) !== '' && Buffer.byteLength(request.url.searchParams.get('query') ?? '') > LIMITS.graphqlDocumentBytesMax);
    if (tooLarge) {
      return errorsAnswer(413, baseHeaders, limitError('DOCUMENT_TOO_LARGE', `The request is larger than ${LIMITS.graphqlDocumentBytesMax} bytes.`));
    }
    const text = body === null ? '' : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
    const key = replayKey(request, text);
    const remembered = answers.get(key);
    if (remembered) {
      // Charged as the full path charges a document of this cost (`spend`), refused with the same 429.
      return settle(limiter.take(clientOf(request), Math.max(1, remembered.cost)), (quota) =>
        quota.allowed ? replayed(remembered, quota.header) : answerOf(rateLimited(quota), { cost: remembered.cost, rateLimit: quota.header }),
      );
    }
    return computed(request, text, key);
  };
}
