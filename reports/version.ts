/**
 * The code version reports are bound to (and the optional dependencies' pins): fencesim's own package.json, found by walking up
 * from this module (reports/ when run from sources, dist/reports/ when built or installed).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Manifest {
  version: string;
  optionalDependencies?: Record<string, string>;
}

function packageManifest(): Manifest {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === 'fencesim' && typeof manifest.version === 'string') return manifest as Manifest;
    } catch {
      // no package.json here (or not fencesim's): keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`fencesim: cannot find fencesim's package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

const manifest = packageManifest();

/** fencesim's package version, e.g. "0.1.0". */
export const fencesimVersion: string = manifest.version;

/** The optional dependencies and their pinned versions (vega and vega-lite, for report.html). */
export const optionalDependencies: Readonly<Record<string, string>> = manifest.optionalDependencies ?? {};
