/**
 * Test files sharing one process (scripts/test.ts: node:test's isolation `none`, loaded
 * with `--import`), each still in a suite of its own. In a shared process node:test runs a
 * file's top-level `before` as the file loads and its `after` once every file is done, so
 * a server one file starts would wait, idle, through every file before it, and a session
 * it opens would time out before its tests run. Here every file's `test`, `before` and
 * `after` (and those of the helpers it loads) are held until the file has loaded, then
 * registered inside one `describe` named after the file: its hooks run around its own
 * tests, as they do when it has a process to itself.
 *
 * How: a module hook resolves `node:test`, imported from under tests/, to this module, and
 * appends to each test file a call to `fileLoaded` (after its last line, so no line moves);
 * node:test loads the files of a process one after another, so what was registered since
 * the previous file's call is this file's.
 */
import { registerHooks } from 'node:module';
import { relative } from 'node:path';
import * as nodeTest from 'node:test';
import { fileURLToPath } from 'node:url';

const self = import.meta.url;
const testsRoot = new URL('../', self).href;
const isTestFile = (url: string) => url.startsWith(testsRoot) && /\.test\.ts$/.test(new URL(url).pathname);

registerHooks({
  resolve(specifier, context, next) {
    if (specifier === 'node:test' && context.parentURL?.startsWith(testsRoot) && context.parentURL !== self) return { url: self, shortCircuit: true };
    return next(specifier, context);
  },
  load(url, context, next) {
    const loaded = next(url, context);
    if (!isTestFile(url) || loaded.source === undefined) return loaded;
    const source = typeof loaded.source === 'string' ? loaded.source : Buffer.from(loaded.source as Uint8Array).toString('utf8');
    return { ...loaded, source: `${source}\n;import { fileLoaded as __fileLoaded } from ${JSON.stringify(self)};\n__fileLoaded(import.meta.url);\n` };
  },
});

/** Registrations held since the previous file loaded; made at once while a file's suite is being built. */
let held: (() => void)[] = [];
let building = false;
/**
 * Set when the first suite starts: node:test runs tests only once every file has loaded,
 * and from then on a registration (an `after` inside a test) belongs where node:test puts it.
 */
let running = false;

function heldUntilLoaded(register: (...args: never[]) => unknown) {
  return (...args: unknown[]): void => {
    const call = () => void Reflect.apply(register, undefined, args);
    if (building || running) call();
    else held.push(call);
  };
}

export const test = heldUntilLoaded(nodeTest.test);
export const it = heldUntilLoaded(nodeTest.it);
export const describe = heldUntilLoaded(nodeTest.describe);
export const suite = heldUntilLoaded(nodeTest.suite);
export const before = heldUntilLoaded(nodeTest.before);
export const after = heldUntilLoaded(nodeTest.after);
export const beforeEach = heldUntilLoaded(nodeTest.beforeEach);
export const afterEach = heldUntilLoaded(nodeTest.afterEach);
export const skip = heldUntilLoaded(nodeTest.skip);
export const todo = heldUntilLoaded(nodeTest.todo);
export const only = heldUntilLoaded(nodeTest.only);
// What registers nothing is node:test's own.
export const { assert, getTestContext, mock, run, snapshot } = nodeTest;
/** `import test from 'node:test'`: the test function, carrying the others as node:test's does. */
export default Object.assign(test, {
  test,
  it,
  describe,
  suite,
  before,
  after,
  beforeEach,
  afterEach,
  skip,
  todo,
  only,
  assert,
  getTestContext,
  mock,
  run,
  snapshot,
});

/** Called at the end of each test file: what it registered becomes its suite. */
export function fileLoaded(url: string): void {
  const calls = held;
  held = [];
  nodeTest.describe(relative(process.cwd(), fileURLToPath(url)), () => {
    building = true;
    nodeTest.before(() => {
      running = true;
    });
    try {
      for (const call of calls) call();
    } finally {
      building = false;
    }
  });
}
