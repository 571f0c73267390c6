// `npm run test:pg`: the indexer's `pg` driver path against a real, throwaway Postgres server.
//
// The route, in order:
//   1. Find a server: FENCESIM_PG_BIN (a directory holding initdb and pg_ctl), else Debian's
//      /usr/lib/postgresql/<newest>/bin, else initdb / pg_ctl on PATH. None, on a Debian/Ubuntu machine where
//      we are root and apt-get exists: `apt-get install postgresql` (Debian's package; signed, no downloads
//      from elsewhere). Otherwise a clear message.
//   2. pgvector: when the server has no `vector` extension and apt can install `postgresql-<major>-pgvector`,
//      install it. Debian 12 (bookworm) has no such package; the test then stores embeddings as a float
//      array (indexer/pg-store.ts `vectorColumn: 'array'`) and says so. Everything else is the same SQL.
//   3. A throwaway cluster in a temp directory on a free localhost port (as the `postgres` user when run as
//      root: the server refuses to run as root), trust authentication, stopped and deleted at the end.
//   4. `vitest run indexer/pg-driver.test.ts` with FENCESIM_PG_URL naming it; its exit code is ours.
// It prints the time each step took. Not part of `npm test` (see the README: the cost is measured there).
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { isExecutable } from './chromium.mjs';

const started = performance.now();
const seconds = (from) => ((performance.now() - from) / 1000).toFixed(1) + ' s';
const say = (text) => console.log(`test:pg: ${text}`);

function fail(text, code = 1) {
  console.error(`test:pg: ${text}`);
  process.exit(code);
}


function findBin() {
  const named = process.env.FENCESIM_PG_BIN;
  if (named) {
    if (!isExecutable(join(named, 'initdb'))) fail(`FENCESIM_PG_BIN=${named} holds no initdb`, 2);
    return named;
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const majors = readdirSync(debian).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
    for (const major of majors) if (isExecutable(join(debian, major, 'bin', 'initdb'))) return join(debian, major, 'bin');
  }
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    if (directory !== '' && isExecutable(join(directory, 'initdb')) && isExecutable(join(directory, 'pg_ctl'))) return directory;
  }
  return null;
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = isExecutable('/usr/bin/apt-get');

function aptInstall(packages) {
  const from = performance.now();
  const result = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  say(`apt-get install ${packages.join(' ')}: ${result.status === 0 ? 'done' : 'failed'} in ${seconds(from)}`);
  return result.status === 0;
}

function aptHas(name) {
  const result = spawnSync('apt-cache', ['show', name], { stdio: ['ignore', 'pipe', 'ignore'] });
  return result.status === 0 && result.stdout.length > 0;
}

let bin = findBin();
if (bin === null) {
  if (!isRoot || !hasApt) fail('no Postgres server found: install one (Debian: apt-get install postgresql), or set FENCESIM_PG_BIN to its bin directory', 2);
  if (!aptInstall(['postgresql'])) fail('apt-get install postgresql failed');
  bin = findBin();
  if (bin === null) fail('apt-get installed postgresql, but no initdb was found under /usr/lib/postgresql');
}
const pgConfig = join(bin, 'pg_config');
const version = spawnSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout.trim();
const major = (/(\d+)/.exec(version) ?? [])[1];
say(`server: ${version} (${bin})`);

const shareDir = isExecutable(pgConfig) ? spawnSync(pgConfig, ['--sharedir'], { encoding: 'utf8' }).stdout.trim() : `/usr/share/postgresql/${major}`;
const hasVector = () => existsSync(join(shareDir, 'extension', 'vector.control'));
if (!hasVector() && isRoot && hasApt && major !== undefined) {
  const name = `postgresql-${major}-pgvector`;
  if (aptHas(name)) aptInstall([name]);
  else say(`apt has no ${name} (Debian 12 packages none): embeddings go into a float array column`);
}
say(`pgvector: ${hasVector() ? 'installed' : 'not installed'}`);

const port = await new Promise((resolve, reject) => {
  const server = createServer();
  server.once('error', reject);
  server.listen(0, '127.0.0.1', () => {
    const { port: free } = server.address();
    server.close(() => resolve(free));
  });
});

const dir = mkdtempSync(join(tmpdir(), 'fencesim-pg-'));
const data = join(dir, 'data');
const asServer = (command, args) => {
  const full = isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  return spawnSync(full[0], full[1], { encoding: 'utf8' });
};
if (isRoot) chownSync(dir, Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout), Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout));

let stopped = false;
function stop() {
  if (stopped) return;
  stopped = true;
  asServer(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
  rmSync(dir, { recursive: true, force: true });
}
process.on('SIGINT', () => {
  stop();
  process.exit(130);
});

let code = 1;
try {
  const initFrom = performance.now();
  const init = asServer(join(bin, 'initdb'), ['-D', data, '-U', 'fencesim', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const start = asServer(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  if (start.status !== 0) throw new Error(`pg_ctl start failed: ${start.stderr}${start.stdout}`);
  say(`throwaway cluster on 127.0.0.1:${port} ready in ${seconds(initFrom)}`);
  const testFrom = performance.now();
  const test = spawnSync('npx', ['vitest', 'run', 'indexer/pg-driver.test.ts'], {
    stdio: 'inherit',
    env: { ...process.env, FENCESIM_PG_URL: `postgresql://fencesim@127.0.0.1:${port}/postgres` },
  });
  code = test.status ?? 1;
  say(`vitest run indexer/pg-driver.test.ts: exit ${code} in ${seconds(testFrom)}`);
} catch (error) {
  console.error(`test:pg: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  stop();
}
say(`total ${seconds(started)}`);
process.exit(code);
