/**
 * Remembered fragments of the whole-collection documents — a GeoJSON feature, a KML
 * placemark, a GPX waypoint, a calendar event (plain data: text, and what the document
 * needs to place it) — by record. A fragment is a pure function
 * of its record's published JSON (and the site URL, part of the kind), so it is kept with
 * that JSON and used again while the JSON is the same: a rebuild that changes one place
 * renders one placemark again, not the export's thousands. The documents are assembled
 * from fragments by the same code whether or not a store is given, so they are the same
 * bytes either way. A record's entry is replaced when its JSON changes; entries of
 * deleted records stay until the store is dropped (one per record ever seen).
 */
export class Fragments {
  readonly entries = new Map<string, { source: string; value: unknown }>();

  /** The fragment of `key`, rendered from `source` unless the one kept came from the same source. */
  get<T>(key: string, source: string, render: () => T): T {
    const kept = this.entries.get(key);
    if (kept !== undefined && kept.source === source) return kept.value as T;
    const value = render();
    this.entries.set(key, { source, value });
    return value;
  }
}

/** Every fragment of a store, by kind, as plain data (to move a store from a worker thread). */
export type FragmentDump = [kind: string, entries: [key: string, source: string, value: unknown][]][];

/** One set of fragments per kind (format and site). */
export class FragmentStore {
  private readonly kinds = new Map<string, Fragments>();

  of(kind: string): Fragments {
    let fragments = this.kinds.get(kind);
    if (!fragments) {
      fragments = new Fragments();
      this.kinds.set(kind, fragments);
    }
    return fragments;
  }

  dump(): FragmentDump {
    return [...this.kinds].map(([kind, fragments]) => [kind, [...fragments.entries].map(([key, { source, value }]) => [key, source, value])]);
  }

  /** Adds the fragments of `dump` this store does not hold yet. */
  load(dump: FragmentDump): void {
    for (const [kind, entries] of dump) {
      const fragments = this.of(kind);
      for (const [key, source, value] of entries) if (!fragments.entries.has(key)) fragments.entries.set(key, { source, value });
    }
  }
}

/**
 * A pretty-printed XML shell's pieces with each slot line (`<tag>n</tag>` alone on its line)
 * replaced by the lines `fill(n)` gives, each on a line of its own (none removes the slot's
 * line): the text around the slots, a newline and a line by turns.
 */
function filled<T>(xml: string, tag: string, fill: (n: number) => readonly T[], text: (piece: string) => T): T[] {
  const parts: T[] = [];
  let last = 0;
  for (const match of xml.matchAll(new RegExp(`\\n *<${tag}>(\\d+)</${tag}>`, 'g'))) {
    parts.push(text(xml.slice(last, match.index)));
    for (const line of fill(Number(match[1]))) parts.push(text('\n'), line);
    last = match.index + match[0].length;
  }
  parts.push(text(xml.slice(last)));
  return parts;
}

/** The shell with its slots filled (`filled`), as text. */
export const fillSlots = (xml: string, tag: string, fill: (n: number) => readonly string[]): string => filled(xml, tag, fill, (piece) => piece).join('');

const NEWLINE = Buffer.from('\n');

/**
 * `fillSlots` with lines kept as UTF-8 bytes, the same document as bytes: a whole-collection
 * export is assembled by copying its tens of thousands of kept fragments, not by joining
 * them into one string and encoding it again (the calendars measured five times faster).
 */
export const fillSlotBytes = (xml: string, tag: string, fill: (n: number) => readonly Uint8Array[]): Buffer =>
  Buffer.concat(filled<Uint8Array>(xml, tag, fill, (piece) => (piece === '\n' ? NEWLINE : Buffer.from(piece))));
