/**
 * The committed schema snapshot (`src/graphql/schema.graphql`) is the v1 contract: the
 * tests fail when the generated schema differs from it, and on a breaking change
 * (graphql's `findBreakingChanges`). This script moves the snapshot forward after an
 * additive change (`npm run docs`); it refuses a breaking one, which needs a new major
 * `GraphQL-API-Version` instead (SPEC §9), unless `--allow-breaking` says so deliberately.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { buildSchema, findBreakingChanges, type BreakingChange } from 'graphql';
import { graphqlSdl } from './schema.ts';

export const SNAPSHOT_PATH = new URL('./schema.graphql', import.meta.url);

/** Breaking changes from the committed snapshot to the schema the code generates now. */
export function breakingChanges(committed: string, current: string): BreakingChange[] {
  return findBreakingChanges(buildSchema(committed), buildSchema(current));
}

if (import.meta.main) {
  const current = graphqlSdl();
  const committed = existsSync(SNAPSHOT_PATH) ? readFileSync(SNAPSHOT_PATH, 'utf8') : undefined;
  const breaking = committed === undefined ? [] : breakingChanges(committed, current);
  if (breaking.length > 0 && !process.argv.includes('--allow-breaking')) {
    console.error(`The GraphQL schema changed in a breaking way; v1 evolves additively:\n${breaking.map((c) => `- ${c.type}: ${c.description}`).join('\n')}`);
    process.exit(1);
  }
  if (committed !== current) writeFileSync(SNAPSHOT_PATH, current);
  console.log(committed === current ? 'schema.graphql is current' : 'schema.graphql updated');
}
