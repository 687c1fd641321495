/**
 * The static artifacts made of records, grouped by the collections each group reads:
 * page one of every list, the service metadata, the taste profile, the place exports,
 * the calendars, the feeds — and the documents made of declarations alone, which read no
 * collection. A full build renders every group; an incremental rebuild renders only the
 * groups that read a changed collection, so the table below is the whole dependency
 * graph between records and files.
 */
import { collection, restCollections } from '../../collections/index.ts';
import { parseQuery } from '../../core/params.ts';
import type { QueryCore } from '../../core/query.ts';
import type { FragmentStore } from '../../formats/fragments.ts';
import { documentHeaders } from '../../http/headers.ts';
import { listAnswer } from '../../http/list.ts';
import { tasteProfile } from '../../taste/profile.ts';
import type { Document } from './document.ts';
import { mcpDocuments, metaDocument, serviceDocuments, tasteProfileDocument } from './documents.ts';
import { calendarDocuments, exportDocuments } from './exports.ts';
import { feedDocuments } from './feeds.ts';
import type { RecordOrders } from './record-order.ts';
import { CALENDARS, collectionUrl, EXPORTS, LINKS, URLS } from '../../urls.ts';

/** A file of the client directory with the headers it is served with (before the security headers, which the manifest adds). */
export interface Artifact {
  /** URL path. */
  path: string;
  /** File under the client directory. */
  file: string;
  body: Buffer;
  headers: Record<string, string>;
}

export interface ArtifactOptions {
  /** The owner's name, as the feeds' author. */
  siteAuthor?: string;
  /** Per-record fragments of the exports and calendars kept from earlier renders (a rebuild under a running server keeps one store). */
  fragments?: FragmentStore;
  /** Every record of the collections the exports and calendars read, in default order, kept across rebuilds (record-order.ts). */
  orders?: RecordOrders;
}

interface ArtifactGroup {
  name: string;
  /** The collections whose records it reads; none: it is made of declarations alone. */
  reads: readonly string[];
  /**
   * Every path it may produce from records; a path a new render no longer produces (an
   * export withheld for missing provenance) leaves the manifest.
   */
  paths: readonly string[];
  render(core: QueryCore, options: ArtifactOptions): Artifact[];
}

function fromDocument(document: Document): Artifact {
  const body = typeof document.body === 'string' ? Buffer.from(document.body) : document.body;
  return { path: document.path, file: document.file, body, headers: documentHeaders(document.contentType, body, document.lastModified) };
}

const restNames = restCollections.map((c) => c.name);

/**
 * The service documents, rendered once per process: they are made of code alone, and
 * rendering them (the OpenAPI description's JSON Schemas from the declarations, then its
 * YAML) took 70–210 ms of every full compile. Each compile gets headers of its own, as
 * the manifest keeps them.
 */
let serviceArtifacts: readonly Artifact[] | undefined;
const renderServiceDocuments = (): Artifact[] =>
  (serviceArtifacts ??= serviceDocuments().map(fromDocument)).map((artifact) => ({ ...artifact, headers: { ...artifact.headers } }));

export const ARTIFACT_GROUPS: readonly ArtifactGroup[] = [
  ...restCollections.map((declaration) => ({
    name: `page one of ${declaration.name}`,
    reads: [declaration.name],
    paths: [collectionUrl(declaration.name)],
    render: (core: QueryCore) => {
      const answer = listAnswer(core, parseQuery(declaration, new URLSearchParams()));
      const path = collectionUrl(declaration.name);
      return [{ path, file: path.slice(1), body: answer.body, headers: answer.headers }];
    },
  })),
  { name: 'service metadata', reads: restNames, paths: [LINKS.meta], render: (core) => [fromDocument(metaDocument(core.image))] },
  {
    name: 'taste profile',
    reads: ['music'],
    paths: [URLS.tasteProfile],
    render: (core) => {
      return [fromDocument(tasteProfileDocument(tasteProfile(core.records(collection('music')!), core.image.asOf('music')), core.image.lastModified('music')))];
    },
  },
  {
    name: 'exports',
    reads: [...new Set(EXPORTS.map((e) => e.collection))],
    paths: EXPORTS.map((e) => e.path),
    render: (core, options) => exportDocuments(core, options.fragments, options.orders).map(fromDocument),
  },
  {
    name: 'calendars',
    reads: [...new Set(CALENDARS.flatMap((c) => c.collections))],
    paths: CALENDARS.map((c) => c.path),
    render: (core, options) => calendarDocuments(core, options.fragments, options.orders).map(fromDocument),
  },
  {
    name: 'feeds',
    reads: ['feed-items'],
    paths: [URLS.jsonFeed, URLS.atomFeed],
    render: (core) => feedDocuments(core).map(fromDocument),
  },
  // Read no records, so an incremental rebuild never renders them again.
  { name: 'service documents', reads: [], paths: [], render: renderServiceDocuments },
  { name: 'mcp discovery', reads: [], paths: [], render: (core) => mcpDocuments(core.image.siteUrl, core.image.profile.name).map(fromDocument) },
];

/** The groups that read any of `changed` (every group when `changed` is undefined). */
export function groupsReading(changed?: ReadonlySet<string>): readonly ArtifactGroup[] {
  return changed === undefined ? ARTIFACT_GROUPS : ARTIFACT_GROUPS.filter((g) => g.reads.some((c) => changed.has(c)));
}
