/**
 * `npm run release`: publishes the build in `dist/` (`DIST_DIR`) as a release under
 * `RELEASES_DIR` (src/release/publish.ts), then sends the Redis notice when `REDIS_URL`
 * is set (`RELEASES_CHANNEL` names the channel). Run after `npm run build`; every replica
 * following that folder serves the release within seconds. Publishing an older build
 * again makes it the newest: that is a rollback.
 */
import { statSync } from 'node:fs';
import { config } from '../config.ts';
import { paths } from '../paths.ts';
import { readBuildOutput } from '../runtime/runtime.ts';
import { sendNotice } from './notice.ts';
import { publishRelease } from './publish.ts';

const { RELEASES_DIR: releasesDir, RELEASES_CHANNEL: channel, REDIS_URL: redisUrl } = config();
if (releasesDir === undefined) {
  console.error('RELEASES_DIR is not set: name the folder every replica reads releases from.');
  process.exit(2);
}
let build;
try {
  build = readBuildOutput(paths.dist);
} catch {
  console.error(`No build in ${paths.dist}: run \`npm run build\` first.`);
  process.exit(2);
}
const started = performance.now();
const builtAt = statSync(paths.manifest).mtime.toISOString();
const manifest = await publishRelease(releasesDir, build, { builtAt });
const { counts } = manifest;
console.log(
  `release ${manifest.id} published in ${releasesDir}: ${counts.files} files, ${counts.objects} objects, ${counts.bytes} bytes (${Math.round(performance.now() - started)} ms)`,
);
if (redisUrl) {
  const sent = await sendNotice(redisUrl, channel, { id: manifest.id, publishedAt: manifest.publishedAt });
  console.log(sent ? 'notice sent' : 'notice not sent (Redis did not answer): replicas will find the release by their periodic check');
}
