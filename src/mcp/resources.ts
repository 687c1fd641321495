/**
 * The resources of the MCP server besides the skills: the `ui://` views the render tools
 * link to (MCP Apps, mime type `text/html;profile=mcp-app`). Each is a self-contained
 * HTML document built once per process.
 */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
export const UI_MIME_TYPE = 'text/html;profile=mcp-app';

export interface UiResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  text: string;
  meta?: Record<string, unknown>;
}

export const RESOURCES: UiResource[] = [];
