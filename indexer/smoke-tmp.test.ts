import { test } from 'vitest';
import { runIndexerGate } from './runner.js';
import { indexerConfig, indexerNames } from './indexers.js';
test('smoke', { timeout: 600000 }, () => {
  for (const name of indexerNames) {
    const t0 = Date.now();
    const r = runIndexerGate(42, name === 'reference' ? 10 : 200, name, indexerConfig(name)!);
    const bad = Object.entries(r.counts).filter(([, c]) => c.violated > 0).map(([k, c]) => `${k}=${c.violated}`);
    const failedMetrics = r.metricResults.filter((m) => !m.passed).map((m) => `${m.name}=${m.value.toFixed(3)}`);
    console.log(name, Date.now() - t0, 'ms', r.passed ? 'PASS' : 'FAIL', bad.join(' '), '|', failedMetrics.join(' '), '| never', r.faultsNeverFired.join(','));
    if (name === 'reference') { console.log(JSON.stringify(r.metricResults.map(m=>[m.name, +m.value.toFixed(4)]))); console.log(r.failures.slice(0,3)); }
  }
});
