// Finds a headless-capable Chromium for the HTML report's browser test, and provisions one when there is none.
//
// The route, in order:
//   1. FENCESIM_CHROMIUM (or CHROME_PATH), when it names an executable: the user's choice wins.
//   2. A system Chromium or Chrome on PATH (chromium, chromium-browser, google-chrome-stable, google-chrome, chrome),
//      then the usual macOS application bundles.
//   3. None found, on a Debian/Ubuntu machine where we are root and apt-get exists: install Debian's `chromium`
//      package (what this project's CI and fresh machines are). Browser downloads at install time (Playwright's,
//      Puppeteer's) cannot work on a machine that reaches only package registries, and a Chromium shipped inside an
//      npm package built for another distribution hangs headless; Debian's package works and is signed.
//   4. Otherwise: a clear message naming what to do (install one, point FENCESIM_CHROMIUM at it, or set
//      FENCESIM_SKIP_BROWSER=1 to skip the browser test on purpose).
//
// `node scripts/chromium.mjs --ensure` is the `pretest` step of `npm test`; the browser test calls findChromium().
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const pathNames = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome', 'chrome'];
const bundlePaths = [
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/** Whether `path` is a file this process may execute (shared with scripts/pg-test.mjs). */
export function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The Chromium to use, as `{ path, source }`, or null when there is none. Never installs anything. */
export function findChromium(env = process.env) {
  for (const variable of ['FENCESIM_CHROMIUM', 'CHROME_PATH']) {
    const named = env[variable];
    if (named !== undefined && named !== '') {
      if (!isExecutable(named)) throw new Error(`${variable}=${named} is not an executable file`);
      return { path: named, source: variable };
    }
  }
  for (const directory of (env['PATH'] ?? '').split(delimiter)) {
    if (directory === '') continue;
    for (const name of pathNames) {
      const candidate = join(directory, name);
      if (isExecutable(candidate)) return { path: candidate, source: 'PATH' };
    }
  }
  for (const candidate of bundlePaths) if (isExecutable(candidate)) return { path: candidate, source: 'application bundle' };
  return null;
}

/** `Chromium 156.0.8078.73` or the like, or the reason it could not be asked. */
export function chromiumVersion(path) {
  try {
    return execFileSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 }).trim();
  } catch (error) {
    return `version unknown (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
}

function canInstallWithApt() {
  if (process.platform !== 'linux' || typeof process.getuid !== 'function' || process.getuid() !== 0) return false;
  return spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

function installWithApt() {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  console.log('fencesim: no Chromium found; installing Debian\'s chromium package (apt-get install chromium) for the HTML report test');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env });
}

/** Finds Chromium, installing it where that is possible; returns its description or exits with a clear message. */
export function ensureChromium() {
  if (process.env['FENCESIM_SKIP_BROWSER'] === '1') {
    console.log('fencesim: FENCESIM_SKIP_BROWSER=1: the HTML report browser test will be skipped');
    return null;
  }
  let found = findChromium();
  if (found === null && canInstallWithApt()) {
    installWithApt();
    found = findChromium();
  }
  if (found === null) {
    console.error(
      'fencesim: the tests open the HTML report in a real headless Chromium, and none was found.\n' +
        '  Install one (Debian/Ubuntu: apt-get install chromium; macOS: Google Chrome or Chromium in /Applications),\n' +
        '  or point FENCESIM_CHROMIUM at a Chromium or Chrome executable,\n' +
        '  or set FENCESIM_SKIP_BROWSER=1 to skip the browser test on purpose.',
    );
    process.exit(1);
  }
  console.log(`fencesim: HTML report browser test uses ${chromiumVersion(found.path)} at ${found.path} (found via ${found.source})`);
  return found;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.argv.includes('--ensure')) ensureChromium();
