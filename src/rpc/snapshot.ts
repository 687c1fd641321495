/**
 * The committed RPC declaration (`src/rpc/api.d.ts`) is the contract clients compile
 * against, published at `/api/rpc/types.d.ts`: the tests fail when the generated one
 * differs from it, and when a change removes or narrows a member (a TypeScript check that
 * the new declaration still satisfies the committed one, src/rpc/compatibility.ts). This
 * script moves it forward after an additive change (`npm run docs`); it refuses a
 * breaking one unless `--allow-breaking` says so deliberately.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { incompatibilities } from './compatibility.ts';
import { rpcDeclaration } from './declaration.ts';

export const DECLARATION_PATH = new URL('./api.d.ts', import.meta.url);

if (import.meta.main) {
  const current = rpcDeclaration();
  const committed = existsSync(DECLARATION_PATH) ? readFileSync(DECLARATION_PATH, 'utf8') : undefined;
  const breaking = committed === undefined || committed === current ? [] : incompatibilities(committed, current);
  if (breaking.length > 0 && !process.argv.includes('--allow-breaking')) {
    console.error(`The RPC contract changed in a breaking way; it evolves additively:\n${breaking.map((b) => `- ${b}`).join('\n')}`);
    process.exit(1);
  }
  if (committed !== current) writeFileSync(DECLARATION_PATH, current);
  console.log(committed === current ? 'api.d.ts is current' : 'api.d.ts updated');
}
