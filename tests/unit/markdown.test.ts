/**
 * Blog bodies through the Markdown renderer: code is highlighted, and whatever a post
 * holds — raw HTML, event handlers, `javascript:` and `data:` links — comes out inert.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../helpers/fc.ts';
import { markdownToHtml, markdownWithTablesToHtml } from '../../src/formats/markdown-html.ts';

test('fenced code with a language is highlighted, and the highlight classes survive sanitising', () => {
  const html = markdownToHtml('Some `inline` code.\n\n```js\nconst answer = 42; // yes\n```\n');
  assert.match(html, /<pre><code class="hljs language-js"><span class="hljs-keyword">const<\/span>/);
  assert.match(html, /<span class="hljs-number">42<\/span>/);
  assert.match(html, /<span class="hljs-comment">\/\/ yes<\/span>/);
  assert.match(html, /<code>inline<\/code>/);
});

test('raw HTML, event handlers and script URLs in a post are neutralised', () => {
  const hostile = [
    '<script>alert(1)</script>',
    '<img src="x" onerror="alert(2)">',
    '<iframe src="https://evil.example"></iframe>',
    '<a href="javascript:alert(3)">raw link</a>',
    '[md link](javascript:alert(4))',
    '[data link](data:text/html;base64,PHNjcmlwdD4=)',
    '![image](javascript:alert(5))',
    '<style>body{display:none}</style>',
    '<div style="position:fixed" onclick="alert(6)">x</div>',
  ].join('\n\n');
  const html = markdownToHtml(hostile);
  for (const bad of ['<script', 'onerror', 'onclick', '<iframe', 'javascript:', 'data:text', '<style', 'style='])
    assert.ok(!html.includes(bad), `${bad} in ${html}`);
  assert.match(html, /<a>md link<\/a>|<a href="">md link<\/a>|md link/);
  assert.match(html, /data link/);
});

/** Every tag the HTML opens, with its attributes (rehype-stringify always double-quotes values). */
function tags(html: string): { name: string; attributes: [string, string][] }[] {
  const found: { name: string; attributes: [string, string][] }[] = [];
  for (const m of html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s"'>/=]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    const attributes = [...m[2]!.matchAll(/([^\s"'>/=]+)(?:="([^"]*)")?/g)].map((a) => [a[1]!.toLowerCase(), a[2] ?? ''] as [string, string]);
    found.push({ name: m[1]!.toLowerCase(), attributes });
  }
  return found;
}

test('no input makes the renderer emit a script, a handler or a script URL', () => {
  const pieces = fc.constantFrom(
    '<script>x</script>',
    '<a href="javascript:x">a</a>',
    '[l](javascript:x)',
    '<img onerror=x src=y>',
    '```js\nx\n```',
    '**b**',
    '<svg onload=x>',
    '`c`',
    '\n\n',
    'text',
    '[ok](https://example.com)',
  );
  fc.assert(
    fc.property(fc.array(pieces, { maxLength: 12 }), fc.string(), (parts, noise) => {
      const html = markdownToHtml(parts.join(noise));
      // Text may mention anything (it is escaped); only tags and attributes can run.
      for (const tag of tags(html)) {
        assert.ok(!['script', 'svg', 'iframe', 'style', 'object', 'embed'].includes(tag.name), html);
        for (const [name, value] of tag.attributes) {
          assert.ok(!name.startsWith('on') && name !== 'style', html);
          if (name === 'href' || name === 'src') assert.ok(!/^\s*(javascript|data|vbscript):/i.test(value), html);
        }
      }
    }),
    { numRuns: 200 },
  );
});

test('GFM pipe tables of the OpenAPI descriptions become tables whose cells are sanitised like the rest', () => {
  const html = markdownWithTablesToHtml(
    'Intro `x`.\n\n| A | B |\n| --- | --- |\n| `a` | one \\| two |\n| <script>x</script> | [l](javascript:alert(1)) |\n\nAfter.',
  );
  assert.match(html, /^<p>Intro <code>x<\/code>\.<\/p>\s*<table>/);
  assert.match(html, /<thead>\s*<tr>\s*<th>A<\/th>\s*<th>B<\/th>\s*<\/tr>\s*<\/thead>/);
  assert.match(html, /<td><code>a<\/code><\/td>\s*<td>one \| two<\/td>/, 'an escaped pipe stays in its cell');
  assert.doesNotMatch(html, /<script|javascript:/i, 'raw HTML and script URLs are sanitised away');
  assert.match(html, /<td><a>l<\/a><\/td>/, 'the link keeps its text, not its script URL');
  assert.match(html, /<\/table>\s*<p>After\.<\/p>$/);
});
