/** The GraphQL explorer's Markdown twin: the root fields read from the executable schema itself. */
import type { APIRoute } from 'astro';
import { graphqlSchema } from '../../graphql/schema.ts';
import { graphqlMarkdown } from '../../site/markdown.ts';

export const GET: APIRoute = () => {
  const fields = Object.values(graphqlSchema().schema.getQueryType()!.getFields()).map((f) => ({
    name: f.name,
    args: f.args.map((a) => `${a.name}: ${String(a.type)}`),
    description: f.description ?? '',
  }));
  return new Response(graphqlMarkdown(fields), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
};
