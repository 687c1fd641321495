/**
 * The skills of the experimental skills extension (`io.modelcontextprotocol/skills`):
 * short Markdown guides (SKILL.md with name and description front matter) that tell an
 * agent how to combine the tools for a task. They are listed by `skills/list`, fetched
 * by `skills/get`, and each SKILL.md is a resource (`skill://<name>/SKILL.md`) readable
 * through `resources/read`. Made of text alone, so built once per process, with the
 * digest and size the extension's manifests carry. The same bytes are published over
 * HTTP for agents without MCP, as the Agent Skills discovery convention lays out: an index
 * at `/.well-known/agent-skills/index.json` (its v0.2.0 shape: name, type `skill-md`,
 * description, url, and the `sha256:` digest of the SKILL.md served) and each SKILL.md
 * at `/.well-known/agent-skills/<name>/SKILL.md`.
 */
import { createHash } from 'node:crypto';
import { LIMITS } from '../core/limits.ts';
import type { JsonSchema } from '../collections/item-schema.ts';
import { agentSkillUrl } from '../urls.ts';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
export const SKILL_MIME_TYPE = 'text/markdown';

interface SkillSource {
  name: string;
  description: string;
  tools: string[];
  body: string;
}

const SOURCES: readonly SkillSource[] = [
  {
    name: 'find-in-collections',
    description: 'Find something in the owner’s collections (films, places, concerts, books, music…) and cite the records.',
    tools: ['taste.find', 'taste.get'],
    body: `# Find something from the owner's collections

1. Pick the collection (\`taste.find\`'s \`collection\` argument lists them) that holds what the person asks about.
2. Call \`taste.find\` with the narrowest filters you can justify (\`filters.year\`, \`filters.city\`, \`filters.genre\`…) and \`q\` for words in titles or names. A filter a collection does not take is refused with its name: drop it.
3. Read \`counts.totalCount\`: when it is large, narrow the query rather than paging through everything. Continue with \`nextCursor\` only when the person needs more.
4. Quote records by title and link them by \`canonicalId\`; reread any with \`taste.get\` (at most ${LIMITS.mcpGetIdsMax} IDs per call).
5. Absence from a collection proves nothing: the owner publishes what they choose.
`,
  },
  {
    name: 'plan-a-day-among-places',
    description: 'Plan a day among the owner’s places in one city: an ordered walk with approximate straight-line distances.',
    tools: ['taste.find', 'places.plan', 'places.render_map'],
    body: `# Plan a day among the owner's places

1. Ask which city, and what kind of day (food, coffee, bars, nature…); do not ask for the person's location: the plan never uses one.
2. Call \`places.plan\` with \`city\` (and \`category\` if given), or with up to ${LIMITS.mcpPlanStopsMax} \`placeIds\` found with \`taste.find\` (collection \`places\`). Give \`startId\` when the person names where they begin.
3. Present the stops in order with the distances **as approximate straight-line (great-circle) distances**: there are no travel times, opening hours or live routes.
4. Show the plan on a map with \`places.render_map\` and the stops' canonical IDs.
`,
  },
  {
    name: 'what-to-watch-tonight',
    description: 'Suggest a film or series to watch tonight from the owner’s recommendations, grounded in the records.',
    tools: ['taste.summarize', 'taste.recommend', 'taste.render_recommendations'],
    body: `# What to watch tonight

1. Ask for a signal first: a genre, a mood, a director, a decade, "something like <title>". \`taste.recommend\` abstains on a request with no signal ("anything", "recommend something") and says what would help.
2. Call \`taste.recommend\` with the intent in the person's words and \`collection: "movies"\`.
3. Give each suggestion with its evidence (\`evidenceDetails\`: the record fields it rests on). Never claim the owner dislikes what is absent.
4. \`taste.summarize\` describes the owner's taste as a whole (distributions, not samples) when the person asks what the owner likes.
5. Show the picks with \`taste.render_recommendations\` and their canonical IDs.
`,
  },
];

export interface Skill {
  uri: string;
  name: string;
  description: string;
  tools: string[];
  text: string;
  sha256: string;
  size: number;
}

export const SKILLS: readonly Skill[] = SOURCES.map((source) => {
  // A JSON string is a YAML double-quoted scalar: a description holding `: ` stays one value.
  const text = `---\nname: ${source.name}\ndescription: ${JSON.stringify(source.description)}\n---\n\n${source.body}`;
  const bytes = Buffer.from(text);
  return {
    uri: `skill://${source.name}/SKILL.md`,
    name: source.name,
    description: source.description,
    tools: source.tools,
    text,
    sha256: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
    size: bytes.length,
  };
});

/** One skill as `skills/list` lists it: its SKILL.md URI, front matter, the tools it uses and its manifest. */
export function skillEntry(skill: Skill): Record<string, unknown> {
  return {
    uri: skill.uri,
    name: skill.name,
    description: skill.description,
    frontmatter: { name: skill.name, description: skill.description },
    tools: skill.tools,
    resources: [{ uri: skill.uri, mimeType: SKILL_MIME_TYPE, digest: skill.sha256, size: skill.size }],
  };
}

/** The schema the Agent Skills discovery index names itself by (v0.2.0). */
export const AGENT_SKILLS_INDEX_SCHEMA_URI = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';

/** `/.well-known/agent-skills/index.json`: every skill, its SKILL.md (root-relative) and the digest of exactly those bytes. */
export function agentSkillsIndex(): Record<string, unknown> {
  return {
    $schema: AGENT_SKILLS_INDEX_SCHEMA_URI,
    skills: SKILLS.map((s) => ({ name: s.name, type: 'skill-md', description: s.description, url: agentSkillUrl(s.name), digest: s.sha256 })),
  };
}

/** The index's shape, closed, for the OpenAPI description and the tests. */
export const AGENT_SKILLS_INDEX_SCHEMA: JsonSchema = {
  title: 'Agent Skills discovery index (v0.2.0)',
  description:
    'Every skill the service publishes: its name, what it is for, where its SKILL.md is served (root-relative) and the SHA-256 digest of those bytes. The same skills MCP lists with skills/list.',
  type: 'object',
  properties: {
    $schema: { const: AGENT_SKILLS_INDEX_SCHEMA_URI },
    skills: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 64 },
          type: { const: 'skill-md' },
          description: { type: 'string', minLength: 1, maxLength: 1024 },
          url: { type: 'string', format: 'uri-reference' },
          digest: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
        },
        required: ['name', 'type', 'description', 'url', 'digest'],
        additionalProperties: false,
      },
    },
  },
  required: ['$schema', 'skills'],
  additionalProperties: false,
} as JsonSchema;
