/**
 * Issue 38, item 2: containers drain. `docker stop` sends SIGTERM to the container's first
 * process alone; docs/deploy/compose.yaml must start the server as that process, so the
 * signal reaches the runtime's drain. This test starts each serving service's command
 * exactly as the compose file writes it (its `node` is the pinned Node running this test),
 * opens a capnweb WebSocket session, sends SIGTERM to that one process as Docker does,
 * and expects the drain: the session ends with 1001, the process exits 0 on its own.
 * Needs `npm run build`.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { newWebSocketRpcSession } from 'capnweb';
import yaml from 'js-yaml';
import type { Root } from '../../src/rpc/api.d.ts';

interface Service {
  command?: string[] | string;
  init?: boolean;
}

const compose = yaml.load(readFileSync('docs/deploy/compose.yaml', 'utf8')) as { services: Record<string, Service> };
const SERVING = ['replica1', 'replica2', 'writer'];

test('every serving service starts the server itself, so SIGTERM reaches it', () => {
  for (const name of SERVING) {
    const command = compose.services[name]!.command;
    assert.ok(Array.isArray(command), `${name}: an exec-form command (a string runs under sh, which takes the signal)`);
    assert.equal(command[0], 'node', `${name}: node is the first process, not ${command[0]}`);
    assert.equal(command.at(-1), 'server.ts');
  }
});

test('SIGTERM sent as docker stop sends it, to the process the compose file starts, drains it: WebSocket 1001, exit 0', async () => {
  const [program, ...args] = compose.services.replica1!.command as string[];
  assert.equal(program, 'node');
  const child = spawn(process.execPath, args, { env: { ...process.env, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the server exited early (${code}): ${output}`)));
  });
  const socket = new WebSocket(`${base.replace('http', 'ws')}/api/rpc`);
  const closed = new Promise<number>((resolve) => socket.addEventListener('close', (event) => resolve(event.code)));
  const api = newWebSocketRpcSession<Root>(socket);
  try {
    assert.equal((await api.content.movies.first(1).records()).length, 1, 'the session answers before the signal');
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    process.kill(child.pid!, 'SIGTERM');
    assert.equal(await closed, 1001, 'the session ends going away, not reset');
    assert.deepEqual(await exited, [0, null], 'the server drained and exited 0 itself');
  } finally {
    api[Symbol.dispose]();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});
