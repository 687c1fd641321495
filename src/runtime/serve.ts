/**
 * Serving a build: the generations of `dist/` (the build's, and later ones when content
 * changes), a node:http server listening on `PORT`/`HOST`, and a graceful stop on SIGINT
 * or SIGTERM (src/runtime/drain.ts): say `draining`, stop accepting, let in-flight
 * answers and WebSocket sessions finish, close the generations, exit 0. With
 * `RELEASES_DIR` the process is one replica of several (src/release/replica.ts): the
 * writer publishes its rebuilds as releases, the others serve the newest release and
 * follow new ones. Shared by `server.ts` and the dev loop's server process; what it
 * reads of the environment comes from src/config.ts.
 */
import { config, type Config } from '../config.ts';
import { replicaRole } from '../release/replica.ts';
import type { ScheduledSync } from '../sync/schedule.ts';
import { drain, drainingDispatcher, Lifecycle } from './drain.ts';
import { Generations } from './generations.ts';
import { createNodeServer } from './node.ts';
import { runtimeOptionsFrom } from './runtime.ts';

/** Opens the build and listens; resolves once listening, with the address it listens on. */
export async function serve(settings: Config = config()): Promise<{ generations: Generations; url: string }> {
  const { PORT: port, HOST: host } = settings;
  const lifecycle = new Lifecycle();
  // With SYNC_INTERVAL the status document also shows the scheduled sync (issue 39, item 6); its sync.yaml is checked first.
  // Loaded only then: the sources and their parsers are a fifth of the modules a server would load.
  const schedule = settings.SYNC_INTERVAL ? await import('../sync/schedule.ts') : undefined;
  const syncConfig = schedule?.scheduleConfigOrExit(settings.SYNC_CONFIG);
  let scheduled: ScheduledSync | undefined;
  const processState = settings.SYNC_INTERVAL ? Object.assign(lifecycle, { sync: () => scheduled?.status() ?? {} }) : lifecycle;
  const options = { ...runtimeOptionsFrom(settings), processState };
  // The writer is the replica whose owner lane is set up (OWNER_OIDC_* and OWNER_SUBJECT; STATE_DIR on its own disk).
  const ownerLane = options.oauth?.config.idp !== undefined;
  const role = await replicaRole(settings, ownerLane);
  const release = role?.initial ? { build: role.initial.build, release: role.initial.manifest.id } : {};
  const generations = await Generations.open({
    ...options,
    ...release,
    afterRebuild: role?.afterRebuild,
    contentDir: settings.CONTENT_DIR,
    siteAuthor: settings.SITE_AUTHOR,
  });
  const dispatcher = drainingDispatcher(generations.dispatcher(), lifecycle);
  const server = createNodeServer(role ? role.dispatcher(dispatcher) : dispatcher, { keepAliveTimeoutMs: settings.KEEP_ALIVE_TIMEOUT_MS });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  role?.start(generations);
  // Only the writer syncs on its own: the only server, or the replica with the owner lane.
  if (settings.SYNC_INTERVAL && schedule && syncConfig && (role === undefined || ownerLane))
    scheduled = schedule.startScheduledSync({
      settings,
      intervalSeconds: settings.SYNC_INTERVAL,
      config: syncConfig,
      ...(options.owner ? { writer: options.owner.writer } : {}),
      rebuild: (paths) => generations.rebuild(paths),
    });
  const stop = async () => {
    scheduled?.stop();
    role?.stop();
    const outcome = await drain(server, () => generations.idle(), lifecycle, settings.DRAIN_DELAY_MS);
    if (outcome === 'timed out') console.error('stopping: requests were still under way after the drain limit; closed them');
    await generations.shutdown();
    // The owner lane's store outlives generations: closed last, once nothing answers.
    options.oauth?.close();
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop().catch(() => process.exit(1)));
  const address = server.address();
  return { generations, url: `http://${host}:${typeof address === 'object' && address ? address.port : port}` };
}
