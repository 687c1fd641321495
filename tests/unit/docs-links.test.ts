/**
 * Every relative link in the README, the changelog and `docs/` resolves to a file inside
 * the repository, and every anchor it names is a heading of the page it points to (GitHub's
 * slugs). A clone has nothing outside the repository, so a link that climbs out of it is
 * broken for everyone but its author. Links inside code (fenced or inline) are examples, not
 * links, and are skipped; links with a scheme point elsewhere and are not fetched.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { documentationFiles } from '../../src/compile/docs/readme.ts';

const root = process.cwd();
const pages = [...documentationFiles(), 'CHANGELOG.md'];

/** The page's prose: fenced blocks and inline code blanked, so examples are not read as links. */
function prose(text: string): string[] {
  let fence = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fence = !fence;
      return '';
    }
    return fence ? '' : line.replace(/`[^`]*`/g, '``');
  });
}

/** GitHub's heading anchors: lowercased, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const heading = !fence && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const plain = heading[1]!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

function links(text: string): string[] {
  const out: string[] = [];
  for (const line of prose(text)) for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]!);
  return out;
}

test('every page the README and docs index link exists, and the README stays under 300 lines', () => {
  assert.ok(readFileSync('README.md', 'utf8').split('\n').length < 300, 'README.md is 300 lines or more: move the detail into docs/');
  const index = readFileSync('docs/index.md', 'utf8');
  for (const page of documentationFiles().filter((f) => f.startsWith('docs/') && f !== 'docs/index.md' && !f.startsWith('docs/deploy/'))) {
    assert.ok(index.includes(`](${relative('docs', page)})`), `docs/index.md does not link ${page}`);
  }
});

test('every relative link in README.md, CHANGELOG.md and docs/ resolves inside the repository, and every anchor exists', () => {
  const problems: string[] = [];
  for (const page of pages) {
    const text = readFileSync(page, 'utf8');
    for (const link of links(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
      if (link.startsWith('/')) {
        problems.push(`${page}: ${link}: a site path, not a file of the repository (write a relative link)`);
        continue;
      }
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? resolve(page) : resolve(dirname(page), decodeURIComponent(path));
      const inside = relative(root, target);
      if (inside.startsWith('..')) {
        problems.push(`${page}: ${link}: outside the repository`);
        continue;
      }
      if (!existsSync(target)) {
        problems.push(`${page}: ${link}: no such file`);
        continue;
      }
      if (anchor !== undefined) {
        if (statSync(target).isDirectory() || !target.endsWith('.md')) problems.push(`${page}: ${link}: an anchor into something that is not a Markdown page`);
        else if (!anchors(readFileSync(target, 'utf8')).has(anchor)) problems.push(`${page}: ${link}: ${inside} has no heading #${anchor}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test('the anchor rule is GitHub’s', () => {
  const a = anchors('# Collection lists — `GET /api/<collection>.json`\n## Images\n## Images\n```\n# not a heading\n```\n');
  assert.deepEqual([...a], ['collection-lists--get-apicollectionjson', 'images', 'images-1']);
});
