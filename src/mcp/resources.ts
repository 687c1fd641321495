/**
 * The resources of the MCP server besides the skills: the `ui://` views the render tools
 * link to (MCP Apps, mime type `text/html;profile=mcp-app`). Each is a self-contained
 * HTML document (src/mcp/views.ts) built once per process; its `_meta.ui.csp` declares
 * no outside domain, so hosts grant it no network either.
 */
import { EXTENSION_ID, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import { viewHtml, type ViewName } from './views.ts';

/** The MCP Apps extension, its mime type and its legacy tool-meta key, as the extension's own package names them. */
export const UI_EXTENSION = EXTENSION_ID;
export const UI_MIME_TYPE = RESOURCE_MIME_TYPE;
export const UI_LEGACY_META_KEY = RESOURCE_URI_META_KEY;

export interface UiResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  text: string;
  meta?: Record<string, unknown>;
}

export const VIEW_URIS: Readonly<Record<ViewName, string>> = {
  recommendations: 'ui://collections/recommendations.html',
  map: 'ui://collections/places-map.html',
  events: 'ui://collections/sporting-events.html',
};

const UI_META = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };

const view = (name: ViewName, title: string, description: string): UiResource => ({
  uri: VIEW_URIS[name],
  name: `${name}-view`,
  title,
  description,
  mimeType: UI_MIME_TYPE,
  text: viewHtml(name, title),
  meta: UI_META,
});

export const RESOURCES: readonly UiResource[] = [
  view('recommendations', 'Recommendations', 'Records recommended from the owner’s collections, with the evidence for each (taste.render_recommendations).'),
  view(
    'map',
    'Places',
    'The owner’s places on a self-contained map (Natural Earth land fitted to the places and computed on the server, drawn in SVG, no tiles fetched), in plan order (places.render_map).',
  ),
  view('events', 'Sporting events', 'The owner’s sporting events as a dated list (sports.render_events).'),
];
