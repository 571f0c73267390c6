/**
 * `--client ./my-client.mjs`: a client given by a module path instead of a registry name. The path is kept
 * as given in the run spec (so every printed command can be pasted in the same directory) and resolved
 * against the working directory wherever the run is rebuilt (workers, replay, shrink). The module's default
 * export is a module client (adapters/mcp-sdk/module/contract.ts) or a reducer `ClientUnderTest`
 * (`init` + `step`), which runs on the pure transport. `.ts`/`.mts` modules load through tsx.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ClientUnderTest } from '../core/types.js';
import { moduleClientProblem, type ModuleClient } from '../adapters/mcp-sdk/module/contract.js';
import { UsageError } from './args.js';

export type LoadedClient = { path: string; kind: 'reducer'; reducer: ClientUnderTest<any> } | { path: string; kind: 'module'; module: ModuleClient };

/** A `--client` value that names a file rather than a registry client (registry names hold no `/` or `.`). */
export function isModulePath(text: string): boolean {
  return text.includes('/') || text.includes('\\') || /\.(mjs|cjs|js|mts|cts|ts)$/.test(text);
}

let tsxRegistered = false;
const loaded = new Map<string, Promise<LoadedClient>>();

/** Loads the client module at `path` (once per thread); throws a UsageError naming what is wrong. */
export function loadClientModule(path: string, command: string): Promise<LoadedClient> {
  const file = isAbsolute(path) ? path : resolve(process.cwd(), path);
  let loading = loaded.get(file);
  if (loading === undefined) {
    loading = importClient(path, file, command);
    loaded.set(file, loading);
  }
  return loading;
}

async function importClient(path: string, file: string, command: string): Promise<LoadedClient> {
  if (!existsSync(file)) throw new UsageError(`--client ${path}: no such file (${file}); give a registry client name or a path to a client module`, command);
  if (/\.(mts|cts|ts)$/.test(file) && !tsxRegistered && process.env.VITEST === undefined) {
    // Both hooks: a `.ts` file is an ES module or CommonJS by its package.json's "type", as a `.js` would be (node
    // --import tsx registers both too); with the ESM hook alone, one in a CommonJS folder failed to load.
    (await import('tsx/esm/api')).register();
    (await import('tsx/cjs/api')).register();
    tsxRegistered = true;
  }
  let exported: unknown;
  try {
    exported = defaultExportOf((await import(pathToFileURL(file).href)) as { default?: unknown });
  } catch (error) {
    throw new UsageError(`--client ${path}: the module failed to load: ${error instanceof Error ? error.message : String(error)}`, command);
  }
  const candidate = exported as Partial<ClientUnderTest<any>> | undefined;
  if (candidate !== undefined && typeof candidate.init === 'function' && typeof candidate.step === 'function' && typeof candidate.name === 'string') {
    return { path, kind: 'reducer', reducer: candidate as ClientUnderTest<any> };
  }
  const problem = moduleClientProblem(exported);
  if (problem !== null) throw new UsageError(`--client ${path}: not a client module: ${problem}`, command);
  return { path, kind: 'module', module: exported as ModuleClient };
}

/**
 * The module's default export. A CommonJS module (a `.ts` or `.js` file in a folder whose package.json is not
 * `"type": "module"`, compiled from `export default ...`) is imported with its `module.exports` as the default,
 * which holds the real default export under `default` beside the `__esModule` mark: that one is taken.
 */
function defaultExportOf(namespace: { default?: unknown }): unknown {
  const exported = namespace.default;
  if (typeof exported === 'object' && exported !== null && (exported as { __esModule?: unknown }).__esModule === true && 'default' in exported) {
    return (exported as { default: unknown }).default;
  }
  return exported;
}

/**
 * Takes `--client <module path>` out of `argv` (the option parser knows only registry names) and loads it;
 * the rest of `argv` is parsed as usual.
 */
export async function takeClientModule(argv: readonly string[], command: string): Promise<{ argv: string[]; loaded: LoadedClient | null }> {
  const index = argv.indexOf('--client');
  const value = index >= 0 ? argv[index + 1] : undefined;
  if (value === undefined || !isModulePath(value)) return { argv: [...argv], loaded: null };
  const rest = [...argv.slice(0, index), ...argv.slice(index + 2)];
  if (rest.includes('--client')) throw new UsageError('--client given twice', command);
  return { argv: rest, loaded: await loadClientModule(value, command) };
}
