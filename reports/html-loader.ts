/**
 * report.html needs vega and vega-lite, which are optional dependencies (about 27 MB): the HTML renderer
 * is imported only when HTML is rendered, and when those packages are missing the caller gets an
 * HtmlUnavailable naming them and the command that installs them, never a module-resolution stack trace.
 * Everything else (report.json, summary.md, junit.xml) never loads them.
 */
import type { renderHtml } from './html.js';
import { optionalDependencies } from './version.js';

export type HtmlRenderer = typeof renderHtml;

/** The packages report.html needs, in the order they are named. */
export const htmlPackages = ['vega', 'vega-lite'] as const;

export class HtmlUnavailable extends Error {
  constructor(readonly missing: string) {
    const install = htmlPackages.map((name) => `${name}@${optionalDependencies[name] ?? 'latest'}`).join(' ');
    super(`report.html needs the optional dependencies ${htmlPackages.join(' and ')}, which are not installed (cannot load ${missing}); install them with: npm install ${install}`);
    this.name = 'HtmlUnavailable';
  }
}

/** The package an import failed to find, when it is one of the HTML renderer's; null for any other error. */
export function missingHtmlPackage(error: unknown): string | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return null;
  const message = error instanceof Error ? error.message : String(error);
  return htmlPackages.find((name) => message.includes(`'${name}'`) || message.includes(`"${name}"`) || message.includes(`/node_modules/${name}/`)) ?? null;
}

let loaded: Promise<HtmlRenderer> | null = null;

/** Imports the HTML renderer (and with it vega) once; rejects with HtmlUnavailable when vega is missing. */
export function loadHtmlRenderer(): Promise<HtmlRenderer> {
  loaded ??= import('./html.js').then(
    (module) => module.renderHtml,
    (error: unknown) => {
      loaded = null;
      const missing = missingHtmlPackage(error);
      throw missing === null ? error : new HtmlUnavailable(missing);
    },
  );
  return loaded;
}
