/**
 * The demo's image files (content/media/), drawn rather than photographed: a few flat
 * illustrations standing in for photos of the demo set, and two flyers that say they are
 * demo flyers. Their records' `alt` describes the drawing, not an imagined photograph.
 * Run once with `npx node bench/demo-media.ts`; the files it writes are committed, and
 * the same code and sharp give the same bytes. The other photos and flyers of the demo
 * have no file on purpose: their pages show no image (the build says so).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';

const MEDIA = join(import.meta.dirname, '../content/media');

/** An SVG of `width`×`height` with `body` inside, drawn on a 300×200-ish canvas scaled to fit. */
const svg = (width: number, height: number, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`;

const DRAWINGS: Record<string, { width: number; height: number; body: string }> = {
  // Cabo da Roca at sunset: sky, sun, sea, cliff, lighthouse.
  'photos/2015/cabo-da-roca.jpg': {
    width: 1200,
    height: 800,
    body: `<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3b2c5e"/><stop offset=".6" stop-color="#f08a4b"/><stop offset="1" stop-color="#ffd27f"/></linearGradient></defs>
<rect width="1200" height="520" fill="url(#s)"/><circle cx="300" cy="500" r="70" fill="#ffe9a8"/>
<rect y="500" width="1200" height="300" fill="#e0733c"/><path d="M0 560 H1200 M0 620 H1200 M0 690 H1200" stroke="#f3a56b" stroke-width="6"/>
<path d="M620 800 L700 470 L1200 430 L1200 800 Z" fill="#2b2420"/>
<rect x="900" y="300" width="60" height="150" fill="#f4efe6"/><path d="M890 300 L930 250 L970 300 Z" fill="#c0392b"/><rect x="915" y="320" width="30" height="22" fill="#ffe9a8"/>`,
  },
  // Above the fog on the Uetliberg: sky, the Alps, the sea of fog, a hill in front.
  'photos/2023/uetliberg-above-the-fog.jpg': {
    width: 1200,
    height: 800,
    body: `<rect width="1200" height="800" fill="#8fc1ea"/>
<path d="M0 420 L140 300 L230 370 L360 230 L470 350 L600 260 L720 360 L860 210 L980 340 L1100 280 L1200 330 V520 H0 Z" fill="#eef3f8"/>
<path d="M360 230 L400 280 L330 270 Z M860 210 L900 260 L830 250 Z" fill="#ffffff"/>
<path d="M0 470 Q150 430 300 470 T600 470 T900 470 T1200 470 V800 H0 Z" fill="#f7f7f4"/>
<path d="M0 800 L0 640 Q300 560 640 650 T1200 700 V800 Z" fill="#3f5b36"/>`,
  },
  // The Elbphilharmonie at dusk: a brick base, the glass top with its wave roof lit from inside.
  'photos/2024/hamburg-elbphilharmonie.jpg': {
    width: 800,
    height: 1200,
    body: `<rect width="800" height="1200" fill="#27345c"/><rect y="980" width="800" height="220" fill="#1a2238"/>
<rect x="120" y="700" width="560" height="300" fill="#8a4b36"/><path d="M140 740 H660 M140 800 H660 M140 860 H660 M140 920 H660" stroke="#6d3a2a" stroke-width="8"/>
<path d="M120 700 V380 Q220 320 300 370 Q400 300 500 360 Q590 310 680 350 V700 Z" fill="#b9c9e0"/>
<path d="M150 460 H650 M150 540 H650 M150 620 H650" stroke="#ffd98a" stroke-width="14"/>`,
  },
  // A run in October: a trail between beech trunks under orange leaves.
  'photos/2026/uetliberg-run-october.jpg': {
    width: 1200,
    height: 900,
    body: `<rect width="1200" height="900" fill="#f2c46b"/><rect y="520" width="1200" height="380" fill="#c8692c"/>
<path d="M520 900 Q600 700 590 520 L640 520 Q680 700 800 900 Z" fill="#a0582a"/>
<g fill="#6f6a60"><rect x="120" y="0" width="50" height="640"/><rect x="330" y="0" width="36" height="580"/><rect x="850" y="0" width="44" height="600"/><rect x="1030" y="0" width="60" height="680"/></g>
<g fill="#e0802f"><circle cx="150" cy="120" r="140"/><circle cx="360" cy="60" r="120"/><circle cx="880" cy="100" r="150"/><circle cx="1060" cy="160" r="130"/></g>`,
  },
};

/** A flyer that says what it is: artist, venue, date, "demo flyer". */
const flyer = (artist: string, venue: string, date: string, color: string) => ({
  width: 600,
  height: 848,
  body: `<rect width="600" height="848" fill="${color}"/><rect x="30" y="30" width="540" height="788" fill="none" stroke="#fff" stroke-width="6"/>
<g font-family="DejaVu Sans" fill="#fff" text-anchor="middle"><text x="300" y="330" font-size="72" font-weight="bold">${artist}</text>
<text x="300" y="430" font-size="34">${venue}</text><text x="300" y="490" font-size="34">${date}</text>
<text x="300" y="760" font-size="24">Demo flyer, drawn for this site</text></g>`,
});

const FLYERS: Record<string, ReturnType<typeof flyer>> = {
  'flyers/kraftwerk-neue-nationalgalerie-2015.jpg': flyer('KRAFTWERK', 'Neue Nationalgalerie, Berlin', '10 January 2015', '#b3261e'),
  'flyers/radiohead-uber-arena-2025.jpg': flyer('RADIOHEAD', 'Uber Arena, Berlin', '8 December 2025', '#1f3b57'),
};

for (const [file, d] of Object.entries({ ...DRAWINGS, ...FLYERS })) {
  const bytes = await sharp(Buffer.from(svg(d.width, d.height, d.body)))
    .jpeg({ quality: 72, mozjpeg: true })
    .toBuffer();
  mkdirSync(dirname(join(MEDIA, file)), { recursive: true });
  writeFileSync(join(MEDIA, file), bytes);
  console.log(`${file}: ${bytes.length} bytes`);
}
