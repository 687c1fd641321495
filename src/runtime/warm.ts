/**
 * The worker thread `Generations.warm` starts: renders the exports and calendars of one
 * image and sends their per-record fragments back (src/formats/fragments.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { calendarDocuments, exportDocuments } from '../compile/artifacts/exports.ts';
import { Image } from '../core/image.ts';
import { QueryCore } from '../core/query.ts';
import { FragmentStore } from '../formats/fragments.ts';

const image = new Image((workerData as { image: string }).image);
try {
  const core = new QueryCore(image);
  const store = new FragmentStore();
  exportDocuments(core, store);
  calendarDocuments(core, store);
  parentPort!.postMessage(store.dump());
} finally {
  image.close();
}
