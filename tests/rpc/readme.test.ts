/**
 * The RPC client session in docs/rpc.md works as printed: the TypeScript between the
 * `rpc-example` markers is type-checked against the published declaration and run
 * against the built server (only the host is changed), with the real capnweb client.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import ts from 'typescript';
import { DECLARATION_PATH } from '../../src/rpc/snapshot.ts';
import { startRpcServer, type RpcServer } from './server.ts';

const readme = readFileSync('docs/rpc.md', 'utf8');
const example = /<!-- rpc-example -->\n```ts\n([\s\S]*?)```\n<!-- \/rpc-example -->/.exec(readme)?.[1];
// Inside the project, so `capnweb` resolves from its node_modules.
const dir = join(process.cwd(), `.rpc-readme-${process.pid}`);

let server: RpcServer;
before(async () => {
  server = await startRpcServer({ rpc: { sessions: 1000 } });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'types.d.ts'), readFileSync(DECLARATION_PATH, 'utf8'));
});
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await server.close();
});

test('the docs/rpc.md example type-checks against the published declaration', () => {
  assert.ok(example, 'docs/rpc.md has an rpc-example block');
  const file = join(dir, 'check.ts');
  writeFileSync(file, example);
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2024,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    types: ['node'],
    lib: ['lib.esnext.d.ts', 'lib.dom.d.ts', 'lib.dom.asynciterable.d.ts'],
    skipLibCheck: true,
  };
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  const diagnostics = ts.getPreEmitDiagnostics(ts.createProgram([file], options)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
  assert.deepEqual(diagnostics, []);
});

test('the docs/rpc.md example runs as printed against the server', async () => {
  const file = join(dir, 'example.ts');
  writeFileSync(file, example!.replaceAll('http://localhost:4321', server.base).replaceAll('ws://localhost:4321', server.wsUrl.replace('/api/rpc', '')));
  const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(code, 0, err);
  const lines = out.trim().split('\n');
  assert.match(lines[0]!, /^ok \d+ \[/);
  assert.match(out, /text\/calendar; charset=utf-8 \d+/);
  assert.match(out, /\d+ concerts in the feed/);
});
