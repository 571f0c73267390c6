/**
 * The HTML renderer is loaded lazily: a missing vega or vega-lite is recognised from the real error an
 * import of a missing package raises (and only then), and named with the command that installs them.
 * The install without them is exercised for real by scripts/package-check.mjs (npm run package-check).
 */
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { HtmlUnavailable, loadHtmlRenderer, missingHtmlPackage } from './html-loader.js';

/** The error Node itself raises importing `specifier` from a directory with no node_modules (vitest's resolver differs). */
function nodeImportError(specifier: string): Error {
  const script = `import(${JSON.stringify(specifier)}).then(() => console.log('{}'), (e) => console.log(JSON.stringify({ code: e.code, message: e.message })))`;
  const reply = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: tmpdir(), encoding: 'utf8' })) as { code?: string; message?: string };
  return Object.assign(new Error(reply.message ?? 'imported'), { code: reply.code });
}

describe('the lazily loaded HTML renderer', () => {
  it('loads when vega is installed (as in development)', async () => {
    const render = await loadHtmlRenderer();
    expect(typeof render).toBe('function');
  });

  it('recognises a missing HTML package from a real module-not-found error, and nothing else', () => {
    expect(missingHtmlPackage(nodeImportError('vega'))).toBe('vega');
    expect(missingHtmlPackage(nodeImportError('vega-lite'))).toBe('vega-lite');
    expect(missingHtmlPackage(nodeImportError('left-pad-is-not-installed-here'))).toBeNull();
    expect(missingHtmlPackage(new TypeError("Cannot find package 'vega'"))).toBeNull();
  });

  it('names both packages and the install command with their pinned versions', () => {
    const error = new HtmlUnavailable('vega');
    expect(error.message).toBe('report.html needs the optional dependencies vega and vega-lite, which are not installed (cannot load vega); install them with: npm install vega@5.33.0 vega-lite@5.23.0');
  });
});
