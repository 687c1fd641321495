/**
 * Following releases: a replica started with `RELEASES_DIR` (and not the writer) serves
 * the newest complete release and swaps to a newer one as it appears, learning of it by
 * a Redis notice (the fast path, when `REDIS_URL` is set) and by a look every
 * `releaseCheckSeconds` (the slow path, for a lost notice). Each candidate is verified
 * object by object before the swap (src/release/release.ts); one that fails is reported
 * and skipped, and the current release keeps serving. Looks run one at a time.
 */
import { LIMITS } from '../core/limits.ts';
import { listenForNotices } from './notice.ts';
import { listReleases, newer, openRelease, type OpenedRelease, type ReleaseManifest } from './release.ts';

export interface FollowerOptions {
  releasesDir: string;
  /** Makes a verified release the one served (src/runtime/generations.ts `adopt`). */
  adopt: (release: OpenedRelease) => Promise<void>;
  /** The release served now, if any. */
  current?: Pick<ReleaseManifest, 'id' | 'publishedAt'>;
  log?: (line: string) => void;
}

export class ReleaseFollower {
  private readonly options: FollowerOptions;
  private current: Pick<ReleaseManifest, 'id' | 'publishedAt'> | undefined;
  /** Releases that failed verification: not tried again. */
  private readonly refused = new Set<string>();
  private looking: Promise<string | undefined> = Promise.resolve(undefined);
  private timer: NodeJS.Timeout | undefined;
  private notices: { close(): void } | undefined;

  constructor(options: FollowerOptions) {
    this.options = options;
    this.current = options.current;
  }

  /** The id of the release served, if any. */
  get serving(): string | undefined {
    return this.current?.id;
  }

  /** Looks for a newer complete release and swaps to it; resolves with the id served after the look. */
  check(): Promise<string | undefined> {
    this.looking = this.looking.then(
      () => this.look(),
      () => this.look(),
    );
    return this.looking;
  }

  private async look(): Promise<string | undefined> {
    const log = this.options.log ?? console.error;
    for (const manifest of listReleases(this.options.releasesDir)) {
      if (this.current && !newer(manifest, this.current)) break;
      if (this.refused.has(manifest.id)) continue;
      let opened: OpenedRelease;
      try {
        opened = await openRelease(this.options.releasesDir, manifest);
      } catch (error) {
        this.refused.add(manifest.id);
        log(`release ${manifest.id} not served: ${(error as Error).message}`);
        continue;
      }
      await this.options.adopt(opened);
      this.current = manifest;
      log(`serving release ${manifest.id} (published ${manifest.publishedAt})`);
      break;
    }
    return this.current?.id;
  }

  /** Starts both paths: notices from `redisUrl` (when given) and the periodic look. */
  start(redisUrl: string | undefined, channel: string): void {
    const log = this.options.log ?? console.error;
    if (redisUrl)
      this.notices = listenForNotices(
        redisUrl,
        channel,
        () => void this.check().catch((error: unknown) => log(`release look failed: ${(error as Error).message}`)),
        log,
      );
    this.timer = setInterval(
      () => void this.check().catch((error: unknown) => log(`release look failed: ${(error as Error).message}`)),
      LIMITS.releaseCheckSeconds * 1000,
    );
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.notices?.close();
  }
}
