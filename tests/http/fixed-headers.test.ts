/**
 * The node:http writer's fixed fields (issue 31): an answer replayed from a remembered one
 * names the fields it shares with it (`Answer.fixedHeaders`), and the writer sends those
 * as serialized once instead of handing them to Node on every answer. As a property over
 * real sockets: for any fields, any subset of them fixed, and any of those then changed or
 * dropped from the answer, the head on the wire holds exactly the lines Node writes for
 * the answer's whole `headers` (Date aside, order aside), the same status line and body,
 * for GET and HEAD.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import fc from '../helpers/fc.ts';
import type { Answer } from '../../src/http/answer.ts';
import { write } from '../../src/runtime/node.ts';

let server: Server;
let port = 0;
let answering: Answer = { status: 200, headers: {}, body: null };

before(async () => {
  server = createServer((req, res) => write(res, answering, req.method === 'HEAD')).listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as { port: number }).port;
});
after(() => server.close());

/** The bytes answered to one request, read to the end of the connection. */
async function exchange(answer: Answer, method: string): Promise<{ statusLine: string; lines: string[]; body: string }> {
  answering = answer;
  const socket = connect(port, '127.0.0.1');
  socket.end(`${method} / HTTP/1.1\r\nHost: fixed.test\r\nConnection: close\r\n\r\n`);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await once(socket, 'close');
  const text = Buffer.concat(chunks).toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
  return { statusLine: statusLine!, lines: lines.filter((line) => !/^date:/i.test(line)).sort(), body: text.slice(split + 4) };
}

const name = fc.oneof(
  fc.constantFrom('ETag', 'Vary', 'Link', 'Cache-Control', 'Content-Type', 'X-Total-Count', 'Content-Length', 'Connection', 'RateLimit', 'Date'),
  fc.stringMatching(/^X-[A-Za-z0-9!#$%&'*+.^_`|~-]{1,12}$/),
);
const value = fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,40}[\x21-\x7e])?$/);
const framing = new Set(['content-length', 'connection', 'date']);

test('an answer with fixed fields puts on the wire exactly the head Node writes for its whole headers', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(fc.tuple(name, value, fc.constantFrom('fixed', 'changed', 'dropped', 'own')), { selector: ([n]) => n.toLowerCase(), maxLength: 14 }),
      fc.constantFrom(200, 404),
      fc.string({ maxLength: 30 }),
      fc.constantFrom('GET', 'HEAD'),
      async (fields, status, text, method) => {
        const body = Buffer.from(text);
        // Framing fields are Node's to write from `headers`; give them values it accepts.
        const usable = fields.filter(([n]) => !framing.has(n.toLowerCase()) || n === 'Content-Length');
        const fixedHeaders: Record<string, string> = {};
        const headers: Record<string, string> = {};
        for (const [n, v, fate] of usable) {
          const sent = n === 'Content-Length' ? String(body.length) : v;
          if (fate !== 'own') fixedHeaders[n] = n === 'Content-Length' ? '0' : v;
          if (fate === 'fixed') headers[n] = sent;
          if (fate === 'changed' || fate === 'own') headers[n] = `${sent}${n === 'Content-Length' ? '' : '-now'}`;
        }
        const whole = await exchange({ status, headers: { ...headers }, body }, method);
        const replayed = await exchange({ status, headers: { ...headers }, body, fixedHeaders }, method);
        assert.deepEqual(replayed, whole);
      },
    ),
    { numRuns: 150 },
  );
});

test('a count that changes per answer is written beside the same fixed fields', async () => {
  const fixedHeaders = { ETag: '"v1"', Vary: 'Accept', 'Content-Type': 'application/json', 'Content-Length': '2' };
  const body = Buffer.from('{}');
  for (let count = 3; count > 0; count--) {
    const headers = { ...fixedHeaders, RateLimit: `"collections";r=${count};t=60` };
    const expected = await exchange({ status: 200, headers, body }, 'GET');
    assert.deepEqual(await exchange({ status: 200, headers, body, fixedHeaders }, 'GET'), expected);
    assert.ok(expected.lines.includes(`RateLimit: "collections";r=${count};t=60`));
  }
});
