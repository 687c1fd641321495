/**
 * One case of a seed, sent again: `npm run fuzz -- --seed S --case N [--only …]` prints
 * its request(s), the answer (status, headers, the start of the body) and what the oracle
 * says about it. The same seed, case number and surface selection give the same bytes as in
 * the campaign (canary tokens included); a report names the case of each example.
 */
import { readContext } from './context.ts';
import { Connection } from './http.ts';
import { checkExchange } from './oracle.ts';
import { describe } from './report.ts';
import { caseAt, finalize } from './sequence.ts';
import { attach, spawnServer } from './spawn.ts';
import { casesOf } from './surfaces.ts';

export async function sendCase(options: { seed: number; index: number; base?: string; only?: readonly string[]; timeoutMs: number }): Promise<boolean> {
  const target = options.base ? attach(options.base) : await spawnServer();
  try {
    const ctx = await readContext(`http://${target.host}:${target.port}`);
    const c = caseAt(casesOf(ctx, options.only), options.seed, options.index);
    const { requests, planted } = finalize(c, options.seed, options.index, `${target.host}:${target.port}`);
    let clean = true;
    let connection: Connection | undefined;
    for (const [i, request] of requests.entries()) {
      if (!connection?.usable(3000)) connection = await Connection.open(target.host, target.port, options.timeoutMs);
      console.log(`case ${options.index} of seed ${options.seed} (${c.surface}), request ${i + 1}/${requests.length}: ${describe(request)}`);
      const outcome = await connection.exchange(request, options.timeoutMs);
      if (outcome.kind === 'response') {
        const { response } = outcome;
        console.log(`→ ${response.status} ${response.reason} in ${outcome.ms} ms`, response.headers.map(([n, v]) => `\n  ${n}: ${v}`).join(''));
        console.log(
          `  ${JSON.stringify(response.body.subarray(0, 600).toString('utf8'))}${response.body.length > 600 ? ` … (${response.body.length} bytes)` : ''}`,
        );
      } else console.log(`→ ${outcome.kind}${'detail' in outcome ? `: ${outcome.detail}` : ''} after ${outcome.ms} ms`);
      for (const finding of checkExchange(
        c.surface,
        request,
        planted[i]!,
        outcome,
        ctx.routes.find((r) => r.name === c.surface),
      )) {
        clean = false;
        console.log(`  [${finding.category}] ${finding.detail}`);
      }
    }
    connection?.destroy();
    await new Promise((r) => setTimeout(r, 300)); // a crash closes the socket a moment before the exit event
    if (target.exited) {
      clean = false;
      console.log(`the server exited: ${target.exited.stderr.slice(-6).join('\n')}`);
    }
    return clean;
  } finally {
    await target.stop();
  }
}
