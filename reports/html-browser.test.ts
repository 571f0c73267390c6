/**
 * The HTML report opened in a real browser (found, or on a fresh Debian machine installed, by
 * scripts/chromium.mjs, the `pretest` step of `npm test`; FENCESIM_CHROMIUM names another one): the page
 * loads from a file:// URL with networking disabled, every figure's svg is parsed as SVG and its marks have
 * a laid-out size, and a screenshot is taken. Fails, rather than skipping, when chromium is missing, unless
 * FENCESIM_SKIP_BROWSER=1. Set FENCESIM_REPORT_ARTIFACTS=<dir> to keep the page and the screenshot there.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumVersion, findChromium } from '../scripts/chromium.mjs';
import { figures } from '../test/fixtures/html.js';
import { loadReport, strategyResults, withDistributions } from '../test/fixtures/reports.js';
import { chartKinds } from './charts.js';
import { renderHtml } from './html.js';

const skip = process.env['FENCESIM_SKIP_BROWSER'] === '1';
const browserTimeoutMs = 90_000;

/**
 * Appended to the copy of the page the browser loads (the report itself has no script): after layout it
 * records on each figure how many marks its svg drew and their laid-out bounding box, so --dump-dom shows
 * what the browser really rendered.
 */
const probe = `<script>
for (const figure of document.querySelectorAll('figure[data-chart]')) {
  const svg = figure.querySelector(':scope > svg');
  const marks = svg ? [...svg.querySelectorAll('g[class^="mark-"] > path, g[class^="mark-"] > rect, g[class^="mark-"] > line')] : [];
  const drawn = marks.filter((mark) => { const box = mark.getBBox(); return box.width > 0 || box.height > 0; });
  const box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
  figure.setAttribute('data-probe', JSON.stringify({ svgNamespace: svg ? svg.namespaceURI : null, marks: marks.length, drawn: drawn.length, width: Math.round(box.width), height: Math.round(box.height) }));
}
document.body.setAttribute('data-probe-done', 'yes');
</script>`;

function runChromium(binary: string, profileDir: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const flags = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--user-data-dir=${profileDir}`,
  ];
  return new Promise((resolve, reject) => {
    execFile(binary, [...flags, ...args], { timeout: browserTimeoutMs, maxBuffer: 64 * 1024 * 1024, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`chromium ${args.join(' ')} failed: ${error.message}\n${stderr.slice(-2_000)}`));
      else resolve({ stdout, stderr });
    });
  });
}

interface Probe {
  svgNamespace: string | null;
  marks: number;
  drawn: number;
  width: number;
  height: number;
}

describe.skipIf(skip)('the HTML report in headless Chromium', () => {
  let workDir = '';
  let keepDir: string | undefined;
  let binary: string | null = null;

  beforeAll(async () => {
    const found = findChromium();
    binary = found?.path ?? null;
    if (found !== null) console.log(`HTML report browser test: ${chromiumVersion(found.path)} at ${found.path} (via ${found.source})`);
    workDir = await mkdtemp(join(tmpdir(), 'fencesim-html-'));
    keepDir = process.env['FENCESIM_REPORT_ARTIFACTS'];
    if (keepDir !== undefined && keepDir !== '') await mkdir(keepDir, { recursive: true });
  });

  afterAll(async () => {
    if (workDir !== '') await rm(workDir, { recursive: true, force: true });
  });

  it('a Chromium is there (npm test provisions one: scripts/chromium.mjs; FENCESIM_SKIP_BROWSER=1 skips the browser tests)', () => {
    expect(binary, 'headless Chromium is required for the HTML report test: `npm test` installs Debian\'s chromium when run as root on Debian; elsewhere install Chromium or Chrome, or set FENCESIM_CHROMIUM, or FENCESIM_SKIP_BROWSER=1 to skip').not.toBeNull();
  });

  it('every figure[data-chart] has an svg whose marks the browser laid out, and the page screenshots', async () => {
    if (binary === null) throw new Error('no Chromium found: see scripts/chromium.mjs (or FENCESIM_SKIP_BROWSER=1)');
    const html = await renderHtml(withDistributions(loadReport('report-swarm-reference')), { strategies: strategyResults });
    const pagePath = join(workDir, 'report.html');
    const probedPath = join(workDir, 'report-probed.html');
    await writeFile(pagePath, html);
    await writeFile(probedPath, html.replace('</body>', `${probe}\n</body>`));

    const dumped = await runChromium(binary, await mkdtemp(join(workDir, 'profile-')), ['--dump-dom', pathToFileURL(probedPath).href]);
    const dom = dumped.stdout;
    expect(dom).toContain('data-probe-done="yes"');
    const found = figures(dom);
    expect([...found.keys()]).toEqual([...chartKinds]);
    for (const [kind, figure] of found) {
      const probeText = /data-probe="([^"]*)"/.exec(figure)?.[1];
      expect(probeText, `${kind}: the probe did not run`).toBeDefined();
      const result = JSON.parse(probeText!.replace(/&quot;/g, '"')) as Probe;
      expect(result.svgNamespace, kind).toBe('http://www.w3.org/2000/svg');
      expect(result.marks, kind).toBeGreaterThan(0);
      expect(result.drawn, kind).toBeGreaterThan(0);
      expect(result.width, kind).toBeGreaterThan(200);
      expect(result.height, kind).toBeGreaterThan(100);
      expect(figure, kind).toMatch(/<svg [^>]*>[\s\S]*<g class="mark-[^"]*"[^>]*>\s*<(?:path|rect)\b/);
    }

    const screenshotPath = join(workDir, 'report.png');
    await runChromium(binary, await mkdtemp(join(workDir, 'profile-')), ['--hide-scrollbars', `--screenshot=${screenshotPath}`, '--window-size=1280,2400', pathToFileURL(pagePath).href]);
    const png = await readFile(screenshotPath);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect((await stat(screenshotPath)).size).toBeGreaterThan(50_000);
    expect(png.readUInt32BE(16)).toBe(1280);

    if (keepDir !== undefined && keepDir !== '') {
      await writeFile(join(keepDir, 'report.html'), html);
      await writeFile(join(keepDir, 'report.png'), png);
    }
  });
});
