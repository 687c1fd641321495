/**
 * The tool registry: every tool the public MCP server offers, in the order `tools/list`
 * lists them. A tool lives in the module of its concern; this list is the one place
 * that says which are published.
 */
import { find, get, sportsList } from './find.ts';
import { plan } from './plan.ts';
import { recommend } from './recommend.ts';
import { renderEvents, renderMap, renderRecommendations } from './render.ts';
import { intersectTool, profile, summarize } from './taste.ts';
import type { ToolDefinition } from './tool.ts';

export const TOOLS: readonly ToolDefinition[] = [
  find,
  get,
  sportsList,
  summarize,
  profile,
  intersectTool,
  recommend,
  plan,
  renderRecommendations,
  renderMap,
  renderEvents,
];

const byName = new Map(TOOLS.map((tool) => [tool.name, tool]));

export const toolNamed = (name: string): ToolDefinition | undefined => byName.get(name);
