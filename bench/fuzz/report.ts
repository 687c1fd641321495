/**
 * The campaign's report as text, with every example request reproducible twice over: a
 * curl command (close, but curl normalises some things: it sets its own framing and may
 * refuse odd bytes) and the exact bytes, base64, with a node one-liner that sends them.
 * `BASE` (default http://localhost:4321) and `PORT` name the server, e.g. `npm run serve`.
 */
import type { RawRequest } from './http.ts';
import { serialize } from './http.ts';
import type { CampaignReport } from './campaign.ts';
import { FAILING, type Category } from './oracle.ts';

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
const printable = (s: string) => /^[\x20-\x7e]*$/.test(s);

/** A curl command for `request`; with `before`, curl sends that first on the same connection (`--next`). */
export function curlOf(request: RawRequest, before?: RawRequest): string {
  if (before) {
    const first = curlOf(before).replace(/^printf %s \S+ \| base64 -d \| /, '');
    const second = curlOf(request).replace(/^printf %s \S+ \| base64 -d \| curl -si/, '');
    return before.body?.length || request.body?.length
      ? `(two requests on one connection: see the raw bytes)`
      : `${first} --next ${second.replace(/^curl -si /, '')}`;
  }
  const parts = ['curl -si --path-as-is'];
  if (request.method === 'HEAD') parts.push('-I');
  else if (request.method !== 'GET' || request.body) parts.push(`-X ${quote(request.method)}`);
  if (request.version === 'HTTP/1.0') parts.push('-0');
  parts.push(`--request-target ${quote(request.target)}`);
  const names = new Set(request.headers.map(([n]) => n.toLowerCase()));
  for (const [name, value] of request.headers) {
    if (/^content-length$/i.test(name)) continue;
    parts.push(value === '' ? `-H ${quote(`${name};`)}` : `-H ${quote(`${name}: ${value}`)}`);
  }
  if (!names.has('host')) parts.push(`-H 'Host:'`);
  if (!names.has('accept')) parts.push(`-H 'Accept:'`);
  parts.push(`-H 'User-Agent:'`);
  if (request.body && request.body.length > 0) {
    if (!names.has('content-type')) parts.push(`-H 'Content-Type:'`);
    parts.push('--data-binary @-');
  }
  parts.push('"${BASE:-http://localhost:4321}"');
  const curl = parts.join(' ');
  return request.body && request.body.length > 0 ? `printf %s ${request.body.toString('base64')} | base64 -d | ${curl}` : curl;
}

/** Whether curl sends what the fuzzer sent (else the raw bytes are the reproduction). */
function curlIsExact(request: RawRequest): boolean {
  return (
    request.version === 'HTTP/1.1' &&
    !request.brokenFraming &&
    printable(request.method) &&
    request.method !== '' &&
    !request.method.includes(' ') &&
    printable(request.target) &&
    !request.target.includes(' ') &&
    request.headers.every(([n, v]) => printable(n) && printable(v) && /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(n)) &&
    request.headers.filter(([n]) => /^host$/i.test(n)).length <= 1 &&
    !request.headers.some(([n]) => /^transfer-encoding$/i.test(n))
  );
}

/** A node one-liner that sends the exact bytes (after `before`'s, once that is answered, on the same connection). */
export function rawOf(request: RawRequest, before?: RawRequest): string {
  const parts = [...(before ? [before] : []), request].map((r) => serialize(r).toString('base64'));
  const size = parts.reduce((n, p) => n + p.length, 0);
  if (size > 1200) return `(${size} base64 characters: the exact bytes are in the --json report)`;
  return `node -e "const[a,b]=process.argv.slice(1).map(x=>Buffer.from(x,'base64'));const s=require('net').connect(+process.env.PORT||4321,'localhost',()=>s.write(a));let n=0;s.on('data',d=>{process.stdout.write(d);if(!n++&&b)s.write(b)});setTimeout(()=>s.destroy(),3000)" ${parts.join(' ')}`;
}

export function describe(request: RawRequest): string {
  const text = serialize(request).toString('latin1');
  const shown = text.length > 300 ? `${text.slice(0, 300)}… (${text.length} bytes)` : text;
  return JSON.stringify(shown);
}

const mb = (n: number | undefined) => (n === undefined ? 'n/a' : `${Math.round(n)} MB`);

export function formatReport(report: CampaignReport): string {
  const lines: string[] = [];
  const failing = report.strictShape ? [...FAILING, 'shape'] : FAILING;
  lines.push(
    `fuzz: seed ${report.seed}, ${report.requests} requests (${report.cases} cases, ${report.replays} replays) in ${report.seconds.toFixed(1)} s = ${report.requestsPerSecond} req/s over ${report.connections} connections${report.incidentSeconds > 0 ? ` (${report.steadyRequestsPerSecond} req/s outside the ${report.incidentSeconds.toFixed(1)} s of restarts and replays)` : ''}`,
  );
  lines.push(
    `per surface: ${Object.entries(report.perSurface)
      .sort()
      .map(([s, n]) => `${s} ${n}`)
      .join(', ')}`,
  );
  lines.push(
    `statuses: ${Object.entries(report.statuses)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([s, n]) => `${s}×${n}`)
      .join(' ')}`,
  );
  const serverErrors = Object.entries(report.serverErrors)
    .sort()
    .map(
      ([s, byStatus]) =>
        `${s} ${Object.entries(byStatus)
          .map(([code, n]) => `${code}×${n}`)
          .join(' ')}`,
    );
  lines.push(`5xx by route (documented 503s included; failing ones are findings): ${serverErrors.join(', ') || 'none'}`);
  lines.push(
    `findings: ${(Object.entries(report.counts) as [Category, number][]).map(([c, n]) => `${c} ${n}${failing.includes(c) ? '' : ' (reported, not failing)'}`).join(', ')}`,
  );
  lines.push(
    `server RSS: before ${mb(report.rssMb.before)}, peak ${mb(report.rssMb.peak)}, after ${mb(report.rssMb.after)}; restarts ${report.restarts}; stderr lines ${report.serverStderrLines}`,
  );
  const { server, fuzzerMaxMs } = report.eventLoop;
  const ms = (n: number | undefined) => (n === undefined ? 'n/a' : `${Math.round(n)} ms`);
  lines.push(
    `event-loop delay: server ${server ? `max ${ms(server.maxMs)}, p99 ${ms(server.p99Ms)}, mean ${server.meanMs.toFixed(1)} ms (measured inside it, since it ${report.restarts > 0 ? 'last started' : 'started'} listening)` : 'n/a (not started by the fuzzer)'}; the fuzzer's own longest hold ${ms(fuzzerMaxMs)}`,
  );
  for (const incident of report.incidents) {
    if (report.incidents.indexOf(incident) === 10) lines.push(`… ${report.incidents.length - 10} more incidents`);
    if (report.incidents.indexOf(incident) >= 10) continue;
    lines.push(
      `incident: ${incident.kind}${incident.exit ? ` (exit ${incident.exit.code ?? incident.exit.signal})` : ''}, ${incident.suspects.length} request(s) in flight, ${incident.culprits.length} reproduced alone${incident.unreproduced ? ', not reproduced' : ''}`,
    );
  }
  if (report.unreproduced > 0) lines.push(`unreproduced (not failing): ${report.unreproduced}`, ...report.notes.map((n) => `  · ${n}`));
  if (report.aborted) lines.push(`ABORTED: ${report.aborted}`);
  for (const group of report.groups) {
    lines.push('');
    const where = Object.entries(group.surfaces)
      .sort(([, a], [, b]) => b - a)
      .map(([s, n]) => `${s} ${n}`)
      .join(', ');
    lines.push(`[${group.category}] ${group.count}× ${group.signature}  (${where})`);
    for (const example of group.examples.slice(0, group.category === 'shape' ? 1 : 2)) {
      if (example.after) lines.push(`  after:   ${describe(example.after)} (on the same connection)`);
      lines.push(`  request (${example.surface}${example.index === undefined ? '' : `, case ${example.index}`}): ${describe(example.request)}`);
      lines.push(`  detail:  ${example.detail.slice(0, 300)}`);
      const exact = curlIsExact(example.request) && (!example.after || curlIsExact(example.after));
      const curl = curlOf(example.request, example.after);
      lines.push(
        `  ${exact ? 'curl' : 'curl (approximate; the raw bytes are exact)'}: ${curl.length > 700 ? `(${curl.length} characters: see the --json report)` : curl}`,
      );
      if (!exact || example.after) lines.push(`  raw:  ${rawOf(example.request, example.after)}`);
    }
  }
  lines.push('');
  lines.push(
    report.failed
      ? `FAILED: ${failing.filter((c) => report.counts[c as Category] > 0).join(', ') || report.aborted}`
      : 'passed: no crash, 5xx, reset, hang, protocol error, echo or leak',
  );
  return lines.join('\n');
}

/** The report as JSON, requests as text and base64. */
export function jsonReport(report: CampaignReport): unknown {
  const request = (r: RawRequest) => ({
    text: serialize(r).toString('latin1').slice(0, 2000),
    base64: serialize(r).toString('base64'),
    curl: curlOf(r),
    raw: { ...r, body: r.body?.toString('base64') },
  });
  return {
    ...report,
    groups: report.groups.map((g) => ({ ...g, examples: g.examples.map((e) => ({ ...e, request: request(e.request), after: e.after && request(e.after) })) })),
    incidents: report.incidents.map((i) => ({
      ...i,
      culprits: i.culprits.map((c) => ({ ...c, request: request(c.request) })),
      suspects: i.suspects.map((c) => ({ ...c, request: request(c.request) })),
    })),
  };
}
