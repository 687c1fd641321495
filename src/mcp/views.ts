/**
 * The HTML of the `ui://` views (MCP Apps): self-contained documents — one inline script
 * and one inline style, allowed by their SHA-256 hashes in a Content-Security-Policy
 * that allows nothing else (no network, no external script, style, font or image), so no
 * request ever leaves the view. The script speaks the guest side of the MCP Apps bridge
 * by hand (`ui/initialize`, then `ui/notifications/initialized`; it renders the
 * `structuredContent` of `ui/notifications/tool-result`; links go through `ui/open-link`),
 * which keeps each view a few kilobytes rather than inlining the 330 KB client bundle.
 * Records are written with `textContent` and DOM nodes only, never as markup.
 */
import { createHash } from 'node:crypto';

const STYLE = `:root{color-scheme:light dark;font:14px/1.45 system-ui,sans-serif}body{margin:0;padding:12px}h1{font-size:16px;margin:0 0 8px}
ol,ul{margin:0;padding:0 0 0 20px}li{margin:0 0 8px}a{color:inherit}.sub{opacity:.75;font-size:12px}.why{font-size:12px;margin-top:2px}
.empty{opacity:.7}svg{width:100%;height:auto;border:1px solid #8884;border-radius:6px;background:#4a8fd226}.land{fill:#7f9f6a99;fill-rule:evenodd;stroke:none}
.pin{fill:#d33;stroke:#fff;stroke-width:1.5}.route{fill:none;stroke:#d33;stroke-width:1.5;stroke-dasharray:4 3}.lbl{font-size:11px;fill:currentColor}`;

/** The bridge and the three renderers; `VIEW` picks one. */
const SCRIPT = `(() => {
  const view = document.documentElement.dataset.view;
  const root = document.getElementById('root');
  let nextId = 1;
  const send = (message) => window.parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
  const request = (method, params) => send({ id: nextId++, method, params });
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; };
  const link = (text, url) => { const a = el('a', text); a.href = url; a.addEventListener('click', (ev) => { ev.preventDefault(); request('ui/open-link', { url }); }); return a; };
  const size = () => send({ method: 'ui/notifications/size-changed', params: { height: document.documentElement.scrollHeight } });
  const SVG = 'http://www.w3.org/2000/svg';
  const svgEl = (tag, attrs) => { const e = document.createElementNS(SVG, tag); for (const k in attrs) e.setAttribute(k, String(attrs[k])); return e; };
  function list(records, ordered) {
    const ol = el(ordered ? 'ol' : 'ul');
    for (const r of records) {
      const li = el('li');
      li.append(r.url ? link(r.title, r.url) : el('span', r.title));
      if (r.subtitle) li.append(el('div', r.subtitle, 'sub'));
      if (r.evidence && r.evidence.length) li.append(el('div', r.evidence.join(' '), 'why'));
      ol.append(li);
    }
    return ol;
  }
  // The base map comes computed from the server (Natural Earth land in a Mercator frame fitted to the places):
  // the land is one path, the pins sit at the points it gives (in the order of the records).
  function map(base) {
    const W = base.width, H = base.height, pts = base.points;
    const svg = svgEl('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': 'Map of ' + pts.length + ' places' });
    svg.append(svgEl('path', { d: base.land, class: 'land' }));
    if (pts.length > 1) svg.append(svgEl('polyline', { points: pts.map((p) => p.x + ',' + p.y).join(' '), class: 'route' }));
    pts.forEach((p, i) => {
      const g = svgEl('g', {});
      g.append(svgEl('circle', { cx: p.x, cy: p.y, r: 6, class: 'pin' }));
      const t = svgEl('text', { x: p.x + 9, y: p.y + 4, class: 'lbl' });
      t.textContent = String(i + 1);
      g.append(t);
      svg.append(g);
    });
    // A scale bar: degrees of longitude at the frame's middle latitude, in kilometres (approximate, as the map is).
    const y = (d) => Math.log(Math.tan(Math.PI / 4 + (d * Math.PI) / 360));
    const midLat = (Math.atan(Math.exp((y(base.bounds.south) + y(base.bounds.north)) / 2)) * 360) / Math.PI - 90;
    const kmPerPx = (111.32 * Math.cos((midLat * Math.PI) / 180) * (base.bounds.east - base.bounds.west)) / W;
    const km = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000].find((d) => d / kmPerPx >= 60) || 2000;
    svg.append(svgEl('line', { x1: 12, x2: 12 + km / kmPerPx, y1: H - 14, y2: H - 14, class: 'route', 'stroke-dasharray': 'none' }));
    const label = svgEl('text', { x: 12, y: H - 20, class: 'lbl' });
    label.textContent = '≈ ' + km + ' km';
    svg.append(label);
    return svg;
  }
  function render(data) {
    root.replaceChildren();
    const records = (data && data.records) || [];
    root.append(el('h1', data && data.heading ? data.heading : 'Records'));
    if (!records.length) { root.append(el('p', 'Nothing to show.', 'empty')); size(); return; }
    if (view === 'map' && data.basemap) root.append(map(data.basemap));
    root.append(list(records, view !== 'recommendations'));
    size();
  }
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const m = event.data;
    if (!m || m.jsonrpc !== '2.0') return;
    if (m.id === 1 && m.result) send({ method: 'ui/notifications/initialized', params: {} });
    else if (m.method === 'ui/notifications/tool-result') render(m.params && m.params.structuredContent);
    else if (m.method === 'ui/resource-teardown' && m.id !== undefined) send({ id: m.id, result: {} });
  });
  request('ui/initialize', { appInfo: { name: 'collections-' + view, version: '1.0.0' }, appCapabilities: {}, protocolVersion: '2026-01-26' });
})();`;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The view's policy: its own inline script and style by hash, images only as data: URLs, nothing fetched, nothing framed. */
export const VIEW_POLICY = [
  "default-src 'none'",
  `script-src ${hash(SCRIPT)}`,
  `style-src ${hash(STYLE)}`,
  'img-src data:',
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export type ViewName = 'recommendations' | 'map' | 'events';

export function viewHtml(view: ViewName, title: string): string {
  return `<!doctype html>
<html lang="en" data-view="${view}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${VIEW_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<main id="root"><h1>${title}</h1><p class="empty">Waiting for the tool result…</p></main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
