import { readFileSync } from 'node:fs';
import { routesFor } from '/work/main/src/compile/edge/deploy.ts';
const m = JSON.parse(readFileSync('/work/main/dist/headers.json','utf8'));
const r = routesFor(m); console.log(r.exclude.length, JSON.stringify(r.exclude, null, 0));
