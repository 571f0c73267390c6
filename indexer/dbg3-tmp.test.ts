import { test } from 'vitest';
import { runIndexerInterleaving } from './runner.js';
import { indexerConfig } from './indexers.js';
import { deriveSeed } from './kernel-imports.js';
import { focusedTimeline } from './shrink.js';
test('dbg3', { timeout: 600000 }, () => {
  for (let i = 0; i < 2000; i++) {
    const seed = deriveSeed(2026, i);
    const r = runIndexerInterleaving(seed, indexerConfig('reference')!);
    const ev = r.metricEvents.find((e) => e.invariant === 'lost_event_found_late');
    if (ev === undefined) continue;
    const one = runIndexerInterleaving(seed, indexerConfig('reference')!, { trace: true });
    console.log(i, seed, ev, JSON.stringify(Object.entries(one.plan.faults).filter(([,v])=>v).map(([k])=>k)));
    console.log(focusedTimeline(one.timeline!, ev.uri).filter(l => !l.includes('probe')).join('\n'));
    break;
  }
});
