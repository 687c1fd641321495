/**
 * Watching a folder for the dev loop: `fs.watch` (recursive), and the names it reports
 * gathered until the folder has been quiet for `quietMs` (an editor's save is several
 * events: a temporary file, a rename, a change of attributes), then handed over as one
 * sorted list, relative to the folder. `keep` decides which names matter.
 */
import { watch } from 'node:fs';

export interface Watcher {
  close(): void;
}

export function watchFolder(dir: string, keep: (name: string) => boolean, onChange: (names: string[]) => void, quietMs = 40): Watcher {
  let names = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(dir, { recursive: true }, (_event, name) => {
    if (name === null || !keep(name)) return;
    names.add(name);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const batch = [...names].sort();
      names = new Set();
      onChange(batch);
    }, quietMs);
  });
  return {
    close: () => {
      clearTimeout(timer);
      watcher.close();
    },
  };
}
