/**
 * The pieces the RPC bounds and errors rest on, without a server: every error leaving a
 * session is rebuilt as `{message, code}` with no stack (an unexpected one says nothing
 * of its cause), and operations are counted wherever they sit in a message, whatever
 * whitespace a hostile client adds.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PublicError } from '../../src/core/errors.ts';
import { RpcError, sendable } from '../../src/rpc/errors.ts';
import { countOperations } from '../../src/rpc/operations.ts';

test('an unexpected failure leaves as UNAVAILABLE with nothing of its cause; known ones keep their code and message only', () => {
  const logged: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => logged.push(args);
  try {
    const secret = Object.assign(new Error('SQLITE_ERROR at /work/main/src/core/query.ts:42'), { sql: 'SELECT secret' });
    const out = sendable(secret);
    assert.deepEqual(Object.keys(out), ['code']);
    assert.equal((out as Error & { code: string }).code, 'UNAVAILABLE');
    assert.doesNotMatch(out.message, /SQLITE|work|query\.ts/);
    assert.equal(out.stack, '');
    assert.equal(logged.length, 1, 'the cause is logged in the process');
  } finally {
    console.error = original;
  }
  const known = sendable(new RpcError('RESOURCE_LIMIT', 'export(): too big.'));
  assert.deepEqual(
    [known.message, (known as Error & { code: string }).code, Object.keys(known), known.stack],
    ['export(): too big.', 'RESOURCE_LIMIT', ['code'], ''],
  );
  const core = sendable(new PublicError('invalid-cursor', 'The cursor must be a valid opaque value.', 'cursor'));
  assert.equal((core as Error & { code: string }).code, 'INVALID_ARGUMENT');
  assert.match(core.message, /^cursor: /);
  assert.equal((sendable(new TypeError("'getMeta' is not a function.")) as Error & { code: string }).code, 'NOT_FOUND');
});

test('operations are counted wherever they sit: pushed, in arguments, in map instructions, with any whitespace', () => {
  const op = '["pipeline", 0, ["service"]]';
  const spaced = (n: number) => `[ "push" , [ "pipeline" ,0, ["service","health"], [ [[${Array.from({ length: n - 1 }, () => op).join(' , ')}]] ] ] ]`;
  assert.deepEqual(countOperations([spaced(32)], 32), { ok: true, operations: 32 });
  assert.deepEqual(countOperations([spaced(33)], 32), { ok: false, reason: 'too-many' });
  const remap = `["push",["remap",1,[],[],[${Array.from({ length: 31 }, () => '["pipeline",-1,["info"],[]]').join(',')}]]]`;
  assert.deepEqual(countOperations([`["push",["remap",1,[],[],[${Array.from({ length: 32 }, () => '["pipeline",-1,["info"],[]]').join(',')}]]]`], 32), {
    ok: false,
    reason: 'too-many',
  });
  assert.deepEqual(countOperations([remap], 32), { ok: true, operations: 32 });
  assert.deepEqual(countOperations(['["pull",1]', '["release",1,1]'], 32), { ok: true, operations: 0 });
  assert.deepEqual(countOperations(['not json'], 32), { ok: false, reason: 'malformed' });
  assert.deepEqual(countOperations(['{"push":1}'], 32), { ok: false, reason: 'malformed' });
  // A call whose one argument is a pipelined promise: both count.
  assert.deepEqual(countOperations(['["push",["pipeline",0,["service","health"],[["pipeline",1,["info"],[]]]]]'], 32), { ok: true, operations: 2 });
  // A map of one instruction: the map and its instruction.
  assert.deepEqual(countOperations(['["push",["remap",1,[],[["import",0]],[["pipeline",-1,["info"],[]]]]]'], 32), { ok: true, operations: 2 });
  // A property named pipeline is a path, not an operation; a literal array is escaped, so its contents are values.
  assert.deepEqual(countOperations(['["push",["pipeline",0,["pipeline","remap"],[]]]'], 32), { ok: true, operations: 1 });
  assert.deepEqual(countOperations(['["push",["pipeline",0,["content","movies","matching"],[{"q":[["pipeline","x"]]}]]]'], 32), { ok: true, operations: 1 });
});
