/**
 * Watching a folder tree for the dev loop, and the names that change in it gathered until
 * the tree has been quiet for `quietMs` (an editor's save is several events: a temporary
 * file, a rename, a change of attributes), then handed over as one sorted list, relative
 * to the folder. `keep` decides which names matter.
 *
 * One non-recursive `fs.watch` per folder rather than `{ recursive: true }`: on Linux,
 * Node's recursive watcher follows files by inode and misses every save after the first
 * that replaces a file by renaming over it — the atomic write editors and
 * src/owner/content-file.ts use — while a folder's own watch reports each rename in it.
 * Folders created later are watched when they appear. Watching has begun when
 * `watchFolder` returns: a change made after that is reported.
 */
import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

export interface Watcher {
  /** The names gathered and not yet handed over (the tree is not quiet yet). */
  pending(): string[];
  close(): void;
}

export function watchFolder(root: string, keep: (name: string) => boolean, onChange: (names: string[]) => void, quietMs = 40): Watcher {
  const watchers = new Map<string, FSWatcher>();
  let names = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const changed = (name: string) => {
    if (!keep(name)) return;
    names.add(name);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const batch = [...names].sort();
      names = new Set();
      onChange(batch);
    }, quietMs);
  };
  const isFolder = (name: string) => {
    try {
      return statSync(join(root, name)).isDirectory();
    } catch {
      return false;
    }
  };
  const watchTree = (dir: string) => {
    if (watchers.has(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(join(root, dir), (event, name) => {
        if (name === null) return;
        const path = dir === '' ? name : `${dir}/${name}`;
        if (event === 'rename') {
          if (isFolder(path)) watchTree(path);
          else watchers.get(path)?.close();
        }
        changed(path);
      });
    } catch {
      return;
    }
    watcher.on('error', () => watcher.close());
    watcher.on('close', () => watchers.delete(dir));
    watchers.set(dir, watcher);
    try {
      for (const entry of readdirSync(join(root, dir), { withFileTypes: true }))
        if (entry.isDirectory()) watchTree(dir === '' ? entry.name : `${dir}/${entry.name}`);
    } catch {
      // Gone already: its parent reported it.
    }
  };
  watchTree('');
  return {
    pending: () => [...names].sort(),
    close: () => {
      clearTimeout(timer);
      for (const watcher of [...watchers.values()]) watcher.close();
    },
  };
}
