#!/usr/bin/env node
/**
 * The package as a user gets it (issue 15). Needs the npm registry, so it is not part of `npm test`
 * (about 2-4 minutes with a warm npm cache): `npm run package-check [-- --sdk 1.30.0] [--keep]` (default: 1.28.0, the lowest of the peer range).
 *
 * 1. `npm pack` this checkout (prepare builds dist/) and list what the tarball holds: no dist/bench, no
 *    test fixtures, a LICENSE.
 * 2. app-sdk: a scratch TypeScript app depending on @modelcontextprotocol/sdk at the lowest version of the
 *    declared peer range (default 1.28.0) installs the tarball; one SDK copy is installed (the app's);
 *    the README's FencedResourceCache example, taken verbatim from README.md, type-checks (with the app's own
 *    `Client` handed to `createClient` and read back from `cache.client`) and runs against a small stdio
 *    server written with that SDK, and the cache then serves the resource.
 * 3. app-lean: `npm install --omit=optional` (no vega): `fencesim gate --interleavings 200` still writes
 *    report.json, summary.md and junit.xml (report.html is skipped with a warning), and
 *    `fencesim report DIR --format html` exits 2 naming vega and vega-lite.
 * 4. app-default: a plain `npm install` of the tarball, for the install footprint.
 * Prints the tarball's size and file count and each install's size (MB) and package count.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const sdkVersion = args.includes('--sdk') ? args[args.indexOf('--sdk') + 1] : '1.28.0';
const keep = args.includes('--keep');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const devVersion = (name) => manifest.devDependencies[name];
const scratch = mkdtempSync(join(tmpdir(), 'fencesim-package-'));
const problems = [];

function run(command, argv, cwd, options = {}) {
  const result = spawnSync(command, argv, { cwd, encoding: 'utf8', timeout: 600_000, ...options });
  if (result.error) throw result.error;
  return result;
}

function mustRun(command, argv, cwd) {
  const result = run(command, argv, cwd);
  if (result.status !== 0) throw new Error(`${command} ${argv.join(' ')} (in ${cwd}) exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

function check(condition, what) {
  console.log(`${condition ? 'ok  ' : 'FAIL'} ${what}`);
  if (!condition) problems.push(what);
}

function footprint(app) {
  const du = execFileSync('du', ['-sk', join(app, 'node_modules')], { encoding: 'utf8' });
  const megabytes = Number(du.split('\t')[0]) / 1024;
  const listed = run('npm', ['ls', '--all', '--parseable'], app).stdout.trim().split('\n').slice(1);
  return { megabytes: Math.round(megabytes * 10) / 10, packages: new Set(listed).size };
}

function newApp(name, dependencies) {
  const app = join(scratch, name);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true, type: 'module', dependencies }, null, 2));
  return app;
}

// 1. the tarball
const packed = JSON.parse(mustRun('npm', ['pack', '--json', '--pack-destination', scratch], root))[0];
const tarball = join(scratch, packed.filename);
const files = packed.files.map((file) => file.path);
console.log(`tarball: ${packed.filename}, ${(packed.size / 1024).toFixed(1)} KiB packed, ${(packed.unpackedSize / 1024).toFixed(1)} KiB unpacked, ${files.length} files`);
check(!files.some((file) => file.startsWith('dist/bench/')), 'the tarball holds no dist/bench');
check(!files.some((file) => file.includes('fixtures') || file.includes('.test.')), 'the tarball holds no tests or test fixtures');
check(files.includes('LICENSE'), 'the tarball holds LICENSE');
check(files.includes('docs/SPEC.md'), 'the tarball holds docs/SPEC.md (the SPEC sections the types cite)');

// 2. app-sdk: the README example against the lowest SDK of the peer range
const appSdk = newApp('app-sdk', {
  '@modelcontextprotocol/sdk': sdkVersion,
  fencesim: `file:${tarball}`,
  typescript: devVersion('typescript'),
  '@types/node': devVersion('@types/node'),
});
mustRun('npm', ['install', '--no-audit', '--no-fund'], appSdk);
const sdkCopies = run('npm', ['ls', '@modelcontextprotocol/sdk', '--all', '--parseable'], appSdk).stdout.trim().split('\n').filter((line) => line.includes('node_modules'));
check(sdkCopies.length === 1, `one copy of @modelcontextprotocol/sdk is installed (${sdkCopies.length}), the app's ${sdkVersion}`);
const installedSdk = JSON.parse(readFileSync(join(appSdk, 'node_modules/@modelcontextprotocol/sdk/package.json'), 'utf8')).version;
check(installedSdk === sdkVersion, `the installed SDK is ${installedSdk}`);
writeFileSync(join(appSdk, 'server.js'), serverSource());
writeFileSync(join(appSdk, 'app.ts'), appSource(readmeExample()));
writeFileSync(join(appSdk, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: ['node'], outDir: 'out' }, files: ['app.ts'] }, null, 2));
const typecheck = run('npx', ['tsc', '-p', '.'], appSdk);
check(typecheck.status === 0, `the README's FencedResourceCache example type-checks against SDK ${sdkVersion}${typecheck.status === 0 ? '' : `:\n${typecheck.stdout}${typecheck.stderr}`}`);
if (typecheck.status === 0) {
  const example = run('node', ['out/app.js'], appSdk, { timeout: 60_000 });
  check(example.status === 0 && example.stdout.includes('served: hello from the fenced server'), `the example runs and the cache serves the resource${example.status === 0 ? '' : `:\n${example.stdout}${example.stderr}`}`);
}

// 3. app-lean: without the optional report dependencies
const appLean = newApp('app-lean', { fencesim: `file:${tarball}` });
mustRun('npm', ['install', '--no-audit', '--no-fund', '--omit=optional'], appLean);
check(!existsSync(join(appLean, 'node_modules/vega')) && !existsSync(join(appLean, 'node_modules/vega-lite')), 'npm install --omit=optional installs neither vega nor vega-lite');
const gate = run('npx', ['fencesim', 'gate', '--interleavings', '200', '--seed', '1', '--workers', '2', '--out', 'report'], appLean, { timeout: 300_000 });
check(gate.status === 0, `fencesim gate --interleavings 200 passes without vega (exit ${gate.status})${gate.status === 0 ? '' : `:\n${gate.stderr.slice(-2_000)}`}`);
for (const file of ['report.json', 'summary.md', 'junit.xml']) check(existsSync(join(appLean, 'report', file)), `... and writes ${file}`);
check(!existsSync(join(appLean, 'report', 'report.html')) && gate.stderr.includes('report.html not written'), '... and skips report.html with a warning naming vega');
const html = run('npx', ['fencesim', 'report', 'report', '--format', 'html'], appLean);
check(html.status === 2 && html.stderr.includes('vega and vega-lite'), `fencesim report --format html exits 2 naming vega and vega-lite (exit ${html.status}): ${html.stderr.split('\n')[0]}`);
const version = run('npx', ['fencesim', '--version'], appLean);
check(version.stdout.trim() === `fencesim ${manifest.version}`, `fencesim --version prints ${version.stdout.trim()}`);

// 4. app-default: the footprint of a plain install
const appDefault = newApp('app-default', { fencesim: `file:${tarball}` });
mustRun('npm', ['install', '--no-audit', '--no-fund'], appDefault);
const full = footprint(appDefault);
const lean = footprint(appLean);
console.log(`install footprint: npm install fencesim: ${full.megabytes} MB, ${full.packages} packages (SDK peer installed by npm); with --omit=optional: ${lean.megabytes} MB, ${lean.packages} packages`);

if (!keep) rmSync(scratch, { recursive: true, force: true });
else console.log(`kept: ${scratch}`);
if (problems.length > 0) {
  console.log(`\n${problems.length} check(s) failed`);
  process.exit(1);
}
console.log('\nevery package check passed');

/** The ```ts block of README.md that uses FencedResourceCache, verbatim. */
function readmeExample() {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);
  const block = blocks.find((text) => text.includes('new FencedResourceCache('));
  if (block === undefined) throw new Error('README.md has no ```ts block with new FencedResourceCache(');
  return block;
}

/** The README example, with the names it leaves to the reader defined, then a run that waits to be served. */
function appSource(example) {
  const imports = example.split('\n').filter((line) => line.startsWith('import '));
  const body = example.split('\n').filter((line) => !line.startsWith('import '));
  return `${imports.join('\n')}
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Ledger } from 'fencesim';

// What the README example leaves to the reader:
const savedLedger: Ledger | undefined = undefined;
const indexer = { entries: [] as unknown[], enqueue(effect: unknown) { this.entries.push(effect); } };
const use = (text: string): void => console.log(\`served: \${text}\`);
let saved = '';
const save = (ledger: unknown): void => { saved = JSON.stringify(ledger); };

async function readmeExample(): Promise<void> {
${body.join('\n')}
}

async function servedWithTheAppsOwnClient(): Promise<void> {
  const cache = new FencedResourceCache({
    connect: async () => new ProcessGroupTransport({ command: 'node', args: ['server.js'] }),
    createClient: () => new Client({ name: 'app', version: '1.0.0' }, { capabilities: {} }),
  });
  await cache.start();
  const own: Client | null = cache.client;
  if (own === null) throw new Error('no client after start');
  cache.subscribe('file:///project/README.md', 'alice');
  for (let attempt = 0; attempt < 100; attempt++) {
    const hit = cache.get('file:///project/README.md', 'alice');
    if (hit.served) {
      use(hit.text);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await cache.close();
}

await readmeExample();
if (saved === '') throw new Error('the README example saved no ledger');
await servedWithTheAppsOwnClient();
`;
}

/** A small stdio MCP server (low-level SDK Server): one subscribable resource. */
function serverSource() {
  return `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ListResourcesRequestSchema, ReadResourceRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const uri = 'file:///project/README.md';
const server = new Server({ name: 'package-check-server', version: '1.0.0' }, { capabilities: { resources: { subscribe: true, listChanged: true } } });
server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [{ uri, name: 'README.md', mimeType: 'text/plain' }] }));
server.setRequestHandler(ReadResourceRequestSchema, async (request) => ({ contents: [{ uri: request.params.uri, mimeType: 'text/plain', text: 'hello from the fenced server' }] }));
server.setRequestHandler(SubscribeRequestSchema, async () => ({}));
server.setRequestHandler(UnsubscribeRequestSchema, async () => ({}));
await server.connect(new StdioServerTransport());
`;
}
