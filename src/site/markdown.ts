/**
 * The Markdown twins of the site's pages (SPEC §4.2: pages negotiate `text/markdown`),
 * rendered from the same views as the HTML pages, so a twin lists the same records in
 * the same order. Links are root-relative and point at the HTML pages (an agent asks
 * them for Markdown again); text from records is escaped so it cannot forge links or
 * headings.
 */
import { blogPath } from '../collections/blog.ts';
import type { CollectionDeclaration } from '../collections/define.ts';
import { collectionPageUrl, collectionUrl, EXPORTS, LINKS, markdownTwinUrl, PAGES, problemJsonUrl, problemUrl, URLS } from '../urls.ts';
import type { FieldView } from './format.ts';
import type { HomeView } from './home.ts';
import type { PictureView } from './media.ts';
import { apiGuide } from './api-guide.ts';
import type { OperationView, ReferenceView, SchemaView, TagView } from './api-reference.ts';
import type { MapView } from './map.ts';
import type { SearchView } from './search-view.ts';
import { pageCollections, type CollectionView, type ItemView } from './view.ts';

/**
 * CommonMark backslash escapes for what would start markup inside a line: emphasis, code,
 * links (a `(` only matters after an escaped `]`), autolinks and raw HTML, GFM strikethrough.
 */
export const escapeMarkdown = (text: string) => text.replace(/\s+/g, ' ').replace(/([\\`*_[\]<>~])/g, '\\$1');

/** A link destination in angle brackets never breaks on spaces or parentheses. */
const dest = (href: string) => `<${href.replace(/[<>\s]/g, encodeURIComponent)}>`;

const link = (text: string, href: string) => `[${escapeMarkdown(text)}](${dest(href)})`;

const itemLine = (item: ItemView) =>
  `- ${link(item.title, item.href)}${item.detail ? ` — ${escapeMarkdown(item.detail)}` : ''}${item.date ? ` (${escapeMarkdown(item.date.text)})` : ''}`;

const lines = (...parts: (string | false | undefined)[]) => `${parts.filter((p) => p !== false && p !== undefined).join('\n')}\n`;

export function collectionMarkdown(view: CollectionView): string {
  const showing = view.items.length === view.totalCount ? `${view.totalCount} records.` : `${view.items.length} of ${view.totalCount} records on this page.`;
  return lines(
    `# ${escapeMarkdown(view.title)}`,
    '',
    escapeMarkdown(view.description),
    '',
    `${showing} The same list as JSON: ${link(view.apiPath, view.apiPath)}.`,
    view.applied.length > 0 && '',
    view.applied.length > 0 && `Filtered by: ${view.applied.map((a) => `${escapeMarkdown(a.label)} (${link('remove', a.href)})`).join(', ')}.`,
    '',
    '## Records',
    '',
    ...(view.items.length > 0
      ? view.items.map(itemLine)
      : view.empty
        ? [
            `No records yet. To add the first, write a file in \`${view.empty.folder}\`, or run \`${view.empty.create}\`.`,
            ...view.empty.imports.map((command) => `- From a service's export: \`${command}\``),
            ...(view.empty.sync ? [`- Kept current from ${view.empty.sync.sources.join(', ')}: \`${view.empty.sync.command}\``] : []),
          ]
        : ['No records match.']),
    '',
    view.first !== undefined || view.next !== undefined ? '## Pages' : false,
    view.first !== undefined || view.next !== undefined ? '' : false,
    view.first !== undefined && `- ${link('First page', view.first)}`,
    view.next !== undefined && `- ${link('Next page', view.next)}`,
    view.first !== undefined || view.next !== undefined ? '' : false,
    '## Sort',
    '',
    ...view.sorts.map((s) => `- ${s.active ? `**${escapeMarkdown(s.label)}**` : link(s.label, s.href)}`),
    '',
    '## Per page',
    '',
    ...view.sizes.map((s) => `- ${s.active ? `**${s.label}**` : link(s.label, s.href)}`),
    ...view.facets.flatMap((f) => [
      '',
      `## ${escapeMarkdown(f.label)}`,
      '',
      ...f.values.map((v) => `- ${link(v.label, v.href)} (${v.count})${v.active ? ' — selected' : ''}`),
    ]),
  );
}

export function recordMarkdown(
  c: CollectionDeclaration,
  title: string,
  fields: readonly FieldView[],
  body: string | undefined,
  canonicalId: string,
  picture?: PictureView,
): string {
  const value = (f: FieldView) => f.values.map((v) => (v.href ? link(v.text, v.href) : escapeMarkdown(v.text))).join(', ');
  return lines(
    `# ${escapeMarkdown(title)}`,
    '',
    picture !== undefined && `![${escapeMarkdown(picture.alt)}](${dest(picture.src)})`,
    picture !== undefined && '',
    `In ${link(c.title, collectionPageUrl(c.name))} · canonical ID \`${canonicalId}\` · JSON: ${link(`${collectionUrl(c.name)}`, collectionUrl(c.name))}`,
    '',
    ...fields.map((f) => `- **${escapeMarkdown(f.label)}**: ${value(f)}`),
    body !== undefined && '',
    // The body is the owner's own Markdown: kept as written.
    body !== undefined && body.trim(),
  );
}

export function homeMarkdown(view: HomeView): string {
  return lines(
    `# ${escapeMarkdown(view.owner.title)}`,
    '',
    view.owner.note !== undefined && escapeMarkdown(view.owner.note),
    view.owner.note !== undefined && '',
    view.owner.me.length > 0 && `Elsewhere: ${view.owner.me.map((href) => link(new URL(href).host, href)).join(', ')}`,
    view.owner.me.length > 0 && '',
    `Films, places, concerts, books, music, runs and more, kept by ${escapeMarkdown(view.owner.name)}. Every page of this site is also Markdown (ask with \`Accept: text/markdown\`), and every list is an API.`,
    '',
    '## Collections',
    '',
    ...view.collections.map((c) => `- ${link(c.title, c.href)} (${c.count}) — ${escapeMarkdown(c.description)}`),
    '',
    '## Latest',
    '',
    ...view.latest.map((i) => `- ${link(i.title, i.href)} — ${escapeMarkdown(i.collection)} (${escapeMarkdown(i.date!.text)})`),
    '',
    '## Feeds, calendars, exports and APIs',
    '',
    ...view.links.map((l) => `- ${link(l.label, l.href)}: ${escapeMarkdown(l.about)}`),
  );
}

/** `/llms.txt` (llmstxt.org): the site's title, a summary, then sections of links with notes. */
export function llmsTxt(view: HomeView, siteUrl: string): string {
  const abs = (path: string) => new URL(path, siteUrl).href;
  return lines(
    `# ${escapeMarkdown(view.owner.title)}`,
    '',
    `> ${escapeMarkdown(view.owner.name)}'s curated collections (films, places, concerts, books, music, sporting events and more) as a static site and read-only APIs. Every HTML page answers \`Accept: text/markdown\` with a Markdown twin, also served at \`<page>/index.md\`.`,
    '',
    '## Collections',
    '',
    ...view.collections.map(
      (c) => `- ${link(c.title, abs(`${c.href}index.md`))}: ${escapeMarkdown(c.description)} (${c.count} records; JSON at ${abs(collectionUrl(c.name))})`,
    ),
    '',
    '## APIs',
    '',
    `- ${link('OpenAPI description', abs(LINKS.openapi))}: the REST lists, filters, sort fields and cursors`,
    `- ${link('API reference', abs(markdownTwinUrl(PAGES.apiReference)))}: the same description as Markdown, one page per tag`,
    `- ${link('Search', abs(LINKS.search))}: \`?q=\` across every collection`,
    `- ${link('GraphQL', abs(LINKS.graphql))}: the same lists as typed connections`,
    `- ${link('SQL profile', abs(LINKS.sqlProfile))}: the relations \`QUERY ${LINKS.sql}\` can read`,
    `- ${link('Problem types', abs(LINKS.problems))}: every error the APIs answer`,
    `- ${link('Service metadata', abs(LINKS.meta))}`,
    '',
    '## Optional',
    '',
    `- ${link('Home page', abs('/index.md'))}`,
    `- ${link('Map', abs(`${PAGES.map}index.md`))}: every located record with its coordinates`,
    `- ${link('Search', abs(`${PAGES.search}?q=jazz`))}: ask with \`Accept: text/markdown\``,
    `- ${link('Blog', abs(URLS.blog))}`,
    `- ${link('API guide', abs(`${PAGES.api}index.md`))}`,
    `- ${link('Atom feed', abs(LINKS.atomFeed))}`,
  );
}

export function apiGuideMarkdown(): string {
  return lines(
    '# APIs',
    '',
    'Everything on this site is readable by programs: anonymous, read-only, with ETags and cursors. Every page also answers `Accept: text/markdown`.',
    ...apiGuide().flatMap((s) => ['', `## ${escapeMarkdown(s.title)}`, '', ...s.links.map((l) => `- ${link(l.label, l.href)}: ${escapeMarkdown(l.about)}`)]),
    '',
    '## Collections as JSON',
    '',
    ...pageCollections.map((c) => `- ${link(collectionUrl(c.name), collectionUrl(c.name))}`),
  );
}

/** The blog index's twin: every post, newest first. */
export function blogIndexMarkdown(posts: readonly Record<string, unknown>[]): string {
  return lines(
    '# Blog',
    '',
    `Also as JSON: ${link(collectionUrl('blog'), collectionUrl('blog'))}; with everything else that happens here in the ${link('Atom', LINKS.atomFeed)} and ${link('JSON', LINKS.jsonFeed)} feeds.`,
    '',
    '## Posts',
    '',
    ...posts.map(
      (p) => `- ${link(String(p.title), blogPath(String(p.slug)))} (${escapeMarkdown(String(p.publishedAt))}): ${escapeMarkdown(String(p.summary))}`,
    ),
  );
}

/** A post's twin: its front matter as a line, then the owner's Markdown as written. */
export function blogPostMarkdown(post: Record<string, unknown>): string {
  const tags = Array.isArray(post.tags) ? post.tags.map(String) : [];
  return lines(
    `# ${escapeMarkdown(String(post.title))}`,
    '',
    `Published ${escapeMarkdown(String(post.publishedAt))}${tags.length ? ` · ${escapeMarkdown(tags.join(', '))}` : ''} · in the ${link('Blog', URLS.blog)}`,
    '',
    `*${escapeMarkdown(String(post.summary))}*`,
    '',
    String(post.body ?? '').trim(),
  );
}

/** The search page's twin: the hits, or how to search when no query is given. */
export function searchMarkdown(view: SearchView | undefined): string {
  if (!view) {
    return lines(
      '# Search',
      '',
      `Search every collection at once: ${link(`${PAGES.search}?q=jazz`, `${PAGES.search}?q=jazz`)} (this page), or ${link(`${LINKS.search}?q=jazz`, `${LINKS.search}?q=jazz`)} for JSON.`,
    );
  }
  return lines(
    `# Search: ${escapeMarkdown(view.q)}`,
    '',
    `${view.totalCount} hits. The same list as JSON: ${link(view.apiPath, view.apiPath)}.`,
    '',
    '## Records',
    '',
    ...(view.items.length > 0
      ? view.items.map((i) => `- ${link(i.title, i.href)} — ${escapeMarkdown(i.collection)}${i.date ? ` (${escapeMarkdown(i.date.text)})` : ''}`)
      : ['Nothing matches.']),
    ...(view.first !== undefined || view.next !== undefined ? ['', '## Pages', ''] : []),
    view.first !== undefined && `- ${link('First page', view.first)}`,
    view.next !== undefined && `- ${link('Next page', view.next)}`,
  );
}

/** The map's twin: every located record with its coordinates, by collection. */
export function mapMarkdown(view: MapView): string {
  const groups = Object.entries(Object.groupBy(view.points, (p) => p.collection));
  return lines(
    '# Map',
    '',
    `${view.points.length} places, concerts and photos with coordinates (latitude, longitude). Exports for map apps: ${EXPORTS.map((e) => link(e.path, e.path)).join(', ')}.`,
    ...groups.flatMap(([name, points]) => [
      '',
      `## ${escapeMarkdown(name)}`,
      '',
      ...points!.map((p) => `- ${link(p.title, p.href)} (${p.latitude}, ${p.longitude})`),
    ]),
  );
}

/** A problem type as its page and twin show it. */
export interface ProblemView {
  slug: string;
  status: number;
  title: string;
  when: string;
}

/** The problem registry's twin: every problem type, with its status and when it is answered. */
export function problemsMarkdown(problems: readonly ProblemView[]): string {
  return lines(
    '# Problem types',
    '',
    `Every error of the API is an RFC 9457 problem whose \`type\` is one of these. The same list as JSON: ${link(URLS.problemsIndex, URLS.problemsIndex)}.`,
    '',
    // `when` is the catalog's own Markdown (code spans for header names), kept as written.
    ...problems.map((p) => `- ${link(p.slug, problemUrl(p.slug))} — ${p.status} ${p.title}: ${p.when}`),
  );
}

/** One problem type's twin: when it is answered, and the shape of its body. */
export function problemMarkdown(p: ProblemView): string {
  const example = JSON.stringify({ type: problemUrl(p.slug), title: p.title, status: p.status, detail: '…what happened and what to do…' }, null, 2);
  return lines(
    `# Problem: \`${p.slug}\``,
    '',
    `**${p.status} ${p.title}.** ${p.when}`,
    '',
    'A response with this problem has `Content-Type: application/problem+json` and a body like:',
    '',
    '```json',
    example,
    '```',
    '',
    `${link('All problem types', LINKS.problems)} · ${link('this type as JSON', problemJsonUrl(p.slug))}`,
  );
}

/** A root field of the GraphQL schema, as the explorer's twin lists it. */
export interface GraphqlFieldView {
  name: string;
  args: string[];
  description: string;
}

/** The GraphQL explorer's twin: where to send queries, the schema, and the root fields an agent can ask for. */
export function graphqlMarkdown(fields: readonly GraphqlFieldView[]): string {
  return lines(
    '# GraphQL',
    '',
    `The collections as typed connections. Send queries to \`POST ${LINKS.graphql}\` (\`application/json\` with \`query\` and \`variables\`) or \`GET ${LINKS.graphql}?query=…\`; a browser visiting ${link(LINKS.graphql, LINKS.graphql)} gets an explorer. The schema: ${link(LINKS.graphqlSchema, LINKS.graphqlSchema)}.`,
    '',
    '```sh',
    `curl -s ${LINKS.graphql} -H 'Content-Type: application/json' -d '{"query":"{ movies(first: 3) { nodes { canonicalId title year } pageInfo { endCursor hasNextPage } } }"}'`,
    '```',
    '',
    '## Root fields',
    '',
    ...fields.map((f) => `- \`${f.name}${f.args.length > 0 ? `(${f.args.join(', ')})` : ''}\`: ${escapeMarkdown(f.description)}`),
  );
}

/** The OpenAPI document's own Markdown, on one line (for a list item). */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

/** The API reference's front page as Markdown: the description, then every tag's operations. */
export function referenceMarkdown(view: ReferenceView): string {
  return lines(
    `# ${escapeMarkdown(view.title)} ${view.version}: reference`,
    '',
    `${escapeMarkdown(view.summary)} Read from the ${link('OpenAPI description', LINKS.openapi)} (also as ${link('YAML', LINKS.openapiYaml)}).`,
    '',
    // The document's description is this project's own Markdown, kept as written.
    view.description.trim(),
    '',
    '## Operations by tag',
    ...view.tags.flatMap((t) => [
      '',
      `### ${link(t.title, t.href)}`,
      '',
      escapeMarkdown(t.description),
      '',
      ...t.operations.map((op) => `- ${link(`${op.method} ${op.path}`, `${t.href}#${op.id}`)}: ${escapeMarkdown(op.summary)}`),
    ]),
    '',
    '## Errors',
    '',
    `Every error is a problem of this shape; its \`type\` is one of the ${link('registered problem types', LINKS.problems)}.`,
    '',
    ...schemaLines(view.problem),
  );
}

function schemaLines(schema: SchemaView): string[] {
  return [
    `### \`${schema.name}\``,
    ...(schema.description ? ['', oneLine(schema.description)] : []),
    ...(schema.properties.length > 0
      ? [
          '',
          ...schema.properties.map(
            (p) => `- \`${p.name}\` (\`${p.type}\`${p.required ? ', required' : ''})${p.description ? `: ${oneLine(p.description)}` : ''}`,
          ),
        ]
      : []),
  ];
}

function operationLines(op: OperationView): string[] {
  return [
    `## ${op.method} \`${op.path}\``,
    '',
    `**${escapeMarkdown(op.summary)}** (\`${op.id}\`)`,
    ...(op.description ? ['', op.description.trim()] : []),
    ...(op.parameters.length > 0
      ? [
          '',
          '### Parameters',
          '',
          ...op.parameters.map((p) => `- \`${p.name}\` (${p.in}, \`${p.type}\`${p.required ? ', required' : ''}): ${oneLine(p.description)}`),
        ]
      : []),
    ...(op.body.length > 0 ? ['', '### Request body', '', ...op.body.map((b) => `- \`${b.mediaType}\`: \`${b.type}\``)] : []),
    '',
    '### Responses',
    '',
    ...op.responses.map((r) => {
      const body = r.mediaTypes.length > 0 ? ` Body: ${r.mediaTypes.map((m) => `\`${m}\``).join(', ')}.` : '';
      const problems = r.problems.length > 0 ? ` Problem types: ${r.problems.map((slug) => link(slug, problemUrl(slug))).join(', ')}.` : '';
      return `- **${r.status}**: ${oneLine(r.description)}${body}${problems}`;
    }),
    '',
  ];
}

/** One tag of the API reference as Markdown: its operations in full, then the schemas they name. */
export function referenceTagMarkdown(tag: TagView): string {
  return lines(
    `# ${escapeMarkdown(tag.title)}`,
    '',
    escapeMarkdown(tag.description),
    '',
    `Part of the ${link('API reference', PAGES.apiReference)}.`,
    '',
    ...tag.operations.flatMap(operationLines),
    ...(tag.schemas.length > 0 ? ['## Schemas', '', ...tag.schemas.flatMap((s) => [...schemaLines(s), ''])] : []),
  );
}
