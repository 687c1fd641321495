/**
 * Where findings go: counted by category, grouped by what they say (without what varies
 * between requests: tokens, timings, sizes), with the surfaces each was seen on and the
 * first few example requests (from different surfaces first). Failures that did not
 * happen again when replayed are notes: reported, not counted.
 */
import type { RawRequest } from './http.ts';
import { FAILING, type Category, type Finding } from './oracle.ts';

const EXAMPLES_PER_GROUP = 3;
const GROUPS_PER_CATEGORY = 40;
const NOTES_KEPT = 20;

export interface Example {
  surface: string;
  request: RawRequest;
  /** Sent before `request` on the same connection. */
  after?: RawRequest;
  detail: string;
  status?: number;
  /** The case of the seed that sent it. */
  index?: number;
}

export interface FindingGroup {
  category: Category;
  signature: string;
  count: number;
  surfaces: Record<string, number>;
  examples: Example[];
}

/** What a finding says, without what varies between requests: tokens, timings, sizes, long numbers (statuses stay). */
const signatureOf = (f: Finding) =>
  f.detail
    .replace(/CANARY[a-z][0-9a-f]{10}/g, 'CANARY…')
    .replace(/\d+ (ms|bytes)/g, 'N $1')
    .replace(/\d{4,}|\d+\.\d+/g, 'N')
    .replace(/…".*$/, '…')
    .slice(0, 160);

export class Findings {
  readonly counts = Object.fromEntries([...FAILING, 'shape'].map((c) => [c, 0])) as Record<Category, number>;
  readonly notes: string[] = [];
  unreproduced = 0;
  private readonly groups = new Map<string, FindingGroup>();

  record(finding: Finding): void {
    this.counts[finding.category]++;
    const signature = signatureOf(finding);
    const key = `${finding.category} ${signature}`;
    let group = this.groups.get(key);
    if (!group) {
      if ([...this.groups.values()].filter((g) => g.category === finding.category).length >= GROUPS_PER_CATEGORY) return;
      group = { category: finding.category, signature, count: 0, surfaces: {}, examples: [] };
      this.groups.set(key, group);
    }
    group.count++;
    group.surfaces[finding.surface] = (group.surfaces[finding.surface] ?? 0) + 1;
    const fresh = !group.examples.some((e) => e.surface === finding.surface);
    if (group.examples.length < EXAMPLES_PER_GROUP || (fresh && group.examples.length < EXAMPLES_PER_GROUP * 2)) {
      group.examples.push({
        surface: finding.surface,
        request: finding.request,
        after: finding.after,
        detail: finding.detail,
        status: finding.status,
        index: finding.index,
      });
    }
  }

  note(line: string): void {
    this.unreproduced++;
    if (this.notes.length < NOTES_KEPT) this.notes.push(line);
  }

  /** The groups, failing categories first, then by count. */
  sorted(): FindingGroup[] {
    const order: Category[] = [...FAILING, 'shape'];
    return [...this.groups.values()].sort((a, b) => order.indexOf(a.category) - order.indexOf(b.category) || b.count - a.count);
  }
}
