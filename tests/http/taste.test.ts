/**
 * The taste surfaces over the wire, every response checked against the OpenAPI
 * description: the summary recomputed from the public movies, the site's own profile,
 * and that profile posted back to the intersection endpoint.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { contractFetch } from '../helpers/contract.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
before(async () => {
  server = await startServer();
});
after(() => server.stop());

async function all(collection: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let next: string | undefined = `/api/${collection}.json?limit=100`;
  while (next) {
    const page = (await (await contractFetch(server.base + next)).json()) as { data: Record<string, unknown>[]; links: { next?: string } };
    items.push(...page.data);
    next = page.links.next;
  }
  return items;
}

const post = (path: string, body: unknown) =>
  contractFetch(server.base + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

test('the taste summary counts what the public movie list shows', async () => {
  const r = await contractFetch(`${server.base}/api/taste/summary.json`);
  assert.equal(r.status, 200);
  const summary = (await r.json()) as {
    counts: { collectionCount: number; returnedCount: number };
    distributions: { dimension: string; values: { value: string; count: number; shareOfEligible: number }[] }[];
    selection: { supportsPopulationClaims: boolean };
  };
  const recommended = (await all('movies')).filter((m) => m.recommended === true);
  assert.equal(summary.counts.collectionCount, recommended.length);
  assert.equal(summary.counts.returnedCount, 5);
  assert.equal(summary.selection.supportsPopulationClaims, false);
  const genres = summary.distributions.find((d) => d.dimension === 'genre')!;
  for (const { value, count, shareOfEligible } of genres.values) {
    assert.equal(count, recommended.filter((m) => (m.genres as string[]).includes(value)).length, value);
    assert.equal(shareOfEligible, Math.round((count / recommended.length) * 10_000) / 10_000);
  }
  assert.equal((await contractFetch(`${server.base}/api/taste/summary.json?exampleLimit=13`)).status, 400);
  assert.equal((await contractFetch(`${server.base}/api/taste/summary.json?collection=books`)).status, 400);
  assert.equal(((await (await contractFetch(`${server.base}/api/taste/summary.json?exampleLimit=0`)).json()) as { examples: unknown[] }).examples.length, 0);
});

test('the site profile, posted back, matches every track it loves or likes', async () => {
  const r = await contractFetch(`${server.base}/.well-known/taste-profile.json`);
  assert.equal(r.headers.get('content-type'), 'application/taste-profile+json; version=1');
  const profile = (await r.json()) as { music: { recordings: { title: string; artist: string; stance: string }[] } };
  const answer = await post('/api/music/intersections.json', { profile });
  assert.equal(answer.status, 200);
  const result = (await answer.json()) as { matches: { title: string; artist: string }[]; abstained: boolean };
  assert.equal(result.abstained, false);
  const wanted = profile.music.recordings.filter((t) => t.stance === 'love' || t.stance === 'like');
  assert.ok(wanted.length > 0);
  for (const track of wanted)
    assert.ok(
      result.matches.some((m) => m.title === track.title && m.artist === track.artist),
      `${track.artist} — ${track.title}`,
    );
  const unknownField = await post('/api/music/intersections.json', { profile, extra: true });
  assert.equal(unknownField.status, 422);
});

test('a station is short, repeatable and keeps its exclusions', async () => {
  const request = {
    schemaVersion: '1',
    stationSeed: 'sunday',
    affinities: [{ kind: 'genre', value: 'Fado', weight: 1 }],
    votes: [],
    hardExclusions: [{ kind: 'artist', value: 'Mariza' }],
    recentCanonicalIds: [],
    limit: 6,
  };
  const [a, b] = [await post('/api/music/station.json', request), await post('/api/music/station.json', request)];
  const first = (await a.json()) as { tracks: { artist: string }[] };
  assert.deepEqual(first, await b.json());
  assert.ok(first.tracks.length <= 6);
  assert.ok(first.tracks.every((t) => t.artist !== 'Mariza'));
});
