/**
 * The one way tests start a browser: playwright-core driving the Chromium that npm installs
 * inside `@sparticuz/chromium`, or the Chromium that `CHROMIUM_PATH` names. No browser
 * download and nothing outside npm, so a test that needs a browser never skips.
 *
 * `chromium.executablePath()` unpacks the packaged binary into `$TMPDIR/chromium` (about
 * 7 s, once per machine; later launches take about 0.3 s). Its `args` are made for AWS
 * Lambda; four kinds are left out here, each for a reason seen on this machine:
 * - `--single-process`: closing one browser context then kills the whole browser
 *   ("Target page, context or browser has been closed" at the next `newPage`).
 * - `--disable-features=…`, `--enable-features=…`: Chromium honours only the last of each,
 *   so these would replace Playwright's own lists, which switch off start-up requests to
 *   Google (OptimizationHints, NetworkTimeServiceQuerying, PreconnectToSearch…). Their
 *   entries only serve `--single-process`.
 * - `--disable-web-security`, `--allow-running-insecure-content`,
 *   `--disable-site-isolation-trials`: tests must see the browser's own rules (CORS,
 *   mixed content, site isolation), not Lambda's relaxed ones.
 * - The GPU ones (`--use-gl=angle`, `--use-angle=swiftshader`, `--in-process-gpu`,
 *   `--ignore-gpu-blocklist`): they composite every frame through SwiftShader, a GPU
 *   emulated on the CPU, which costs more CPU than Chromium's own software compositor
 *   under `--disable-gpu` (as with `CHROMIUM_PATH`): the GraphQL explorer test, whose
 *   editor keeps repainting, took 10.7-12.2 s of CPU, now 4.3-5.1 s. WebGL still works,
 *   through the SwiftShader Playwright enables for it.
 */
import { readFileSync, rmSync } from 'node:fs';
import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser } from 'playwright-core';
import { config } from '../../src/config.ts';

/** This machine has no network: no background requests, update checks, pings or reports. */
const OFFLINE_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--no-pings',
];

const LEFT_OUT = [
  '--single-process',
  '--disable-features=',
  '--enable-features=',
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--disable-site-isolation-trials',
  '--ignore-gpu-blocklist',
  '--in-process-gpu',
  '--use-gl=',
  '--use-angle=',
];

/** The Chromium major version the package ships (its own major version). */
const PACKAGED_MAJOR = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('@sparticuz/chromium')), 'utf8')) as { version: string }
).version.split('.')[0];

/** Starts a headless Chromium; close it with `browser.close()`. */
export async function launchBrowser(): Promise<Browser> {
  const custom = config().CHROMIUM_PATH;
  if (custom) return playwright.launch({ executablePath: custom, args: ['--disable-gpu', ...OFFLINE_ARGS] });
  try {
    return await launchPackaged();
  } catch {
    // executablePath() reuses whatever file is already at $TMPDIR/chromium: one another
    // version of the package unpacked, or one an interrupted unpacking cut short. Unpack afresh once.
    rmSync(await chromium.executablePath(), { force: true });
    return launchPackaged();
  }
}

async function launchPackaged(): Promise<Browser> {
  const args = chromium.args.filter((arg) => !LEFT_OUT.some((left) => arg === left || (left.endsWith('=') && arg.startsWith(left))));
  const browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: [...args, '--disable-gpu', ...OFFLINE_ARGS] });
  if (browser.version().split('.')[0] === PACKAGED_MAJOR) return browser;
  await browser.close();
  throw new Error(`found Chromium ${browser.version()} where @sparticuz/chromium ${PACKAGED_MAJOR} unpacks its own`);
}
