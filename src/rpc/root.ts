/**
 * The root capability of an RPC session and the members under it (SPEC §4.6): `service`,
 * `content.<collection>`, `discovery`, `taste`, `feed`. Each is an RpcTarget whose
 * public methods and getters are the contract (src/rpc/declaration.ts writes them out);
 * state lives in `#` fields, which capnweb never exposes, and nothing else is a member:
 * no `open()`, `query()`, `getMeta()` or `getStatus()`, no callbacks, no raw rows, no
 * owner authority. Every member answers through the same core and parsers REST does.
 */
import { RpcTarget } from 'capnweb';
import { collection as declarationOf, contentCollections, restCollections } from '../collections/index.ts';
import { LIMITS } from '../core/limits.ts';
import { API_VERSION } from '../http/headers.ts';
import { contract, type ContractSummary } from './contract.ts';
import type { RpcContext } from './context.ts';
import { invalidArgument, isRpcError, RpcError } from './errors.ts';
import { feedStream } from './feed-stream.ts';
import { Recommendations, recommend } from './recommend.ts';
import { Selection } from './selection.ts';
import type { TasteSources } from '../taste/sources.ts';
import { TasteMembers } from './taste.ts';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** The collection's selection: every record, REST's default order and page size. */
const selectionOf = (context: RpcContext, name: string) =>
  new Selection(context, { kind: 'collection', collection: declarationOf(name)! }, new URLSearchParams());

/** The newest as-of time of any list: the status document's `dataAsOf`. */
const dataAsOf = (context: RpcContext) =>
  new Date(restCollections.map((c) => context.core.image.asOf(c.name)).reduce((a, b) => (b > a ? b : a), '1970-01-01T00:00:00Z'));

export interface ServiceDescription {
  name: string;
  version: string;
  collections: string[];
  limits: Record<string, number>;
  contract: ContractSummary;
}

/** The RPC limits a client can plan by (SPEC §8). */
const RPC_LIMITS = Object.fromEntries(
  Object.entries(LIMITS).filter(([name]) => name.startsWith('rpc') || name === 'pageSizeMax' || name === 'pageSizeDefault'),
);

export class Service extends RpcTarget {
  readonly #context: RpcContext;
  constructor(context: RpcContext) {
    super();
    this.#context = context;
  }

  describe(): ServiceDescription {
    this.#context.session.call('service.describe');
    return { name: 'Collections', version: API_VERSION, collections: restCollections.map((c) => c.name), limits: RPC_LIMITS, contract: contract().summary };
  }

  health(): { status: 'ok'; dataAsOf: Date } {
    this.#context.session.call('service.health');
    return { status: 'ok', dataAsOf: dataAsOf(this.#context) };
  }
}

/**
 * `content.movies`, `content['sporting-events']`…: one getter per REST collection, named
 * as REST names it, each returning that collection's selection. The getters are defined
 * on the prototype from the declarations (capnweb reads prototype getters, never own
 * properties), so a new collection needs no change here.
 */
export class Content extends RpcTarget {
  readonly #context: RpcContext;
  constructor(context: RpcContext) {
    super();
    this.#context = context;
  }

  /** The selection of a collection by name, for getters defined below. */
  static selection(content: Content, name: string): Selection {
    content.#context.session.call(`content.${name}`);
    return selectionOf(content.#context, name);
  }
}
for (const c of restCollections) {
  Object.defineProperty(Content.prototype, c.name, {
    get(this: Content) {
      return Content.selection(this, c.name);
    },
    enumerable: false,
    configurable: false,
  });
}

export class Discovery extends RpcTarget {
  readonly #context: RpcContext;
  constructor(context: RpcContext) {
    super();
    this.#context = context;
  }

  /** `/api/search.json` as a selection: `{query, collections?}` are REST's `q` and `collection`. */
  search(options: unknown): Selection {
    this.#context.session.call('discovery.search');
    if (!isPlainObject(options) || typeof options.query !== 'string')
      throw invalidArgument('search.query', 'options is {query: string, collections?: string[]}.');
    const params = new URLSearchParams({ q: options.query });
    if (options.collections !== undefined) {
      if (
        !Array.isArray(options.collections) ||
        options.collections.length > contentCollections.length ||
        !options.collections.every((c) => typeof c === 'string')
      ) {
        throw invalidArgument('search.collections', 'collections is an array of collection names.');
      }
      for (const name of options.collections as string[]) params.append('collection', name);
    }
    return new Selection(this.#context, { kind: 'search', searchable: contentCollections.map((c) => c.name) }, params);
  }

  /** Ranks the candidate selection's current page for an intent; abstains when the intent carries no signal. */
  recommend(options: unknown, candidates: unknown): Recommendations {
    this.#context.session.call('discovery.recommend');
    return recommend(this.#context, options, candidates);
  }
}

export class Feed extends RpcTarget {
  readonly #context: RpcContext;
  constructor(context: RpcContext) {
    super();
    this.#context = context;
  }

  /** `/api/feed-items.json` as a selection: `{collections?, since?}` are REST's `collection` and `since`. */
  select(options: unknown = {}): Selection {
    this.#context.session.call('feed.select');
    if (!isPlainObject(options)) throw invalidArgument('select(options)', 'options is {collections?: string[], since?: string | Date}.');
    const params = new URLSearchParams();
    if (options.collections !== undefined) {
      if (
        !Array.isArray(options.collections) ||
        options.collections.length > contentCollections.length ||
        !options.collections.every((c) => typeof c === 'string')
      ) {
        throw invalidArgument('select.collections', 'collections is an array of collection names.');
      }
      for (const name of options.collections as string[]) params.append('collection', name);
    }
    if (options.since !== undefined) {
      const since = options.since instanceof Date ? (Number.isNaN(options.since.getTime()) ? '' : options.since.toISOString()) : options.since;
      if (typeof since !== 'string') throw invalidArgument('select.since', 'since is an RFC 3339 date or date-time, or a Date.');
      params.set('since', since);
    }
    try {
      return new Selection(this.#context, { kind: 'collection', collection: declarationOf('feed-items')! }, params);
    } catch (error) {
      if (isRpcError(error))
        throw new RpcError(error.code, error.message.replace(/^matching\.collection/, 'select.collections').replace(/^matching\.since/, 'select.since'));
      throw error;
    }
  }

  /** Every feed item of `select(options)` once, newest first, as a finite stream: WebSocket sessions only. */
  stream(options: unknown = {}): ReadableStream<Record<string, unknown>> {
    this.#context.session.call('feed.stream');
    this.#context.session.requireWebSocket('feed.stream()');
    const selection = this.select(options);
    return feedStream(this.#context, selection);
  }
}

export class Root extends RpcTarget {
  readonly #service: Service;
  readonly #content: Content;
  readonly #discovery: Discovery;
  readonly #taste: TasteMembers;
  readonly #feed: Feed;

  constructor(context: RpcContext, taste: TasteSources) {
    super();
    this.#service = new Service(context);
    this.#content = new Content(context);
    this.#discovery = new Discovery(context);
    this.#taste = new TasteMembers(context, taste);
    this.#feed = new Feed(context);
  }

  get service(): Service {
    return this.#service;
  }
  get content(): Content {
    return this.#content;
  }
  get discovery(): Discovery {
    return this.#discovery;
  }
  get taste(): TasteMembers {
    return this.#taste;
  }
  get feed(): Feed {
    return this.#feed;
  }
}
