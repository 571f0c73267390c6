/**
 * The health verdict over the fold of reference-core steps: healthy when notifications carry the changes,
 * unhealthy with named reasons when they look lost, a reconnect leaves URIs unsubscribed, or a revocation
 * is not purged; figures outside the window no longer count.
 */
import { describe, expect, it } from 'vitest';
import { connected, disconnected, updated } from '../core/testing.js';
import { foldStep } from './fold.js';
import { formatHealth, healthOf } from './health.js';
import { Run, subscribed } from './testing.js';

const uris = ['mem://docs/a', 'mem://docs/b', 'mem://docs/c'];

function subscribedToAll(): Run {
  const run = new Run();
  run.feed(connected(0, 1));
  uris.forEach((uri, index) => subscribed(run, uri, 10 + index * 10));
  return run;
}

describe('cache health', () => {
  it('healthy: connected, every wanted URI subscribed, notifications bring the changes', () => {
    const run = subscribedToAll();
    run.feed(updated(1_000, 1, uris[0]!));
    run.fire(`debounce:${uris[0]}`);
    const health = healthOf(run.observe, run.nowMs + 10);
    expect(health).toMatchObject({ verdict: 'healthy', reasons: [], connected: true, wantedUris: 3, subscribedUris: 3 });
    expect(health.window.updatedNotifications).toBe(1);
  });

  it('notifications look lost: reconciliation finds changes while no notification arrived', () => {
    const run = subscribedToAll();
    for (const uri of uris) run.reconcile(uri, `${uri} v2`);
    const health = healthOf(run.observe, run.nowMs);
    expect(health.verdict).toBe('unhealthy');
    expect(health.reasons).toEqual([
      { code: 'NOTIFICATIONS_LOOK_LOST', severity: 'critical', message: 'subscribed to 3 URIs, 0 notifications in 10 min while reconciliation found 3 changes: notifications look lost' },
    ]);
    expect(formatHealth(health)).toContain('critical: NOTIFICATIONS_LOOK_LOST: subscribed to 3 URIs');
    // Ten minutes later the changes have left the window: no longer a finding.
    expect(healthOf(run.observe, run.nowMs + 660_000).reasons).toEqual([]);
  });

  it('some notifications lost: more reconciliation changes than notifications is a warning', () => {
    const run = subscribedToAll();
    run.feed(updated(run.nowMs + 1, 1, uris[0]!));
    run.fire(`debounce:${uris[0]}`);
    run.reconcile(uris[1]!, 'b v2');
    const health = healthOf(run.observe, run.nowMs);
    expect(health.verdict).toBe('degraded');
    expect(health.reasons.map((reason) => reason.code)).toEqual(['NOTIFICATIONS_PARTLY_LOST']);
  });

  it('a reconnect that re-subscribes nothing: disconnected first, then RESUBSCRIPTION_INCOMPLETE past the deadline', () => {
    const run = subscribedToAll();
    run.feed(disconnected(1_000, 1));
    expect(healthOf(run.observe, 1_000).reasons.map((reason) => reason.code)).toEqual(['DISCONNECTED']);
    // A naive client: reconnects and sends no subscribe (the core's effects are not fed here).
    run.observe = foldStep(run.observe, connected(2_000, 2), []).state;
    expect(healthOf(run.observe, 10_000).verdict).toBe('healthy');
    const late = healthOf(run.observe, 40_000);
    expect(late.reasons).toEqual([
      { code: 'RESUBSCRIPTION_INCOMPLETE', severity: 'critical', message: 'reconnected 38 s ago (session 2): only 0 of 3 wanted URIs re-subscribed' },
    ]);
  });

  it('a revocation the client never purges is critical after purgeDelayMsMax', () => {
    const run = subscribedToAll();
    run.observe = foldStep(run.observe, { type: 'AuthorizationChanged', nowMs: 1_000, jitter: 0, subject: 'default', uri: uris[0]!, allowed: false }, []).state;
    expect(healthOf(run.observe, 1_500).reasons).toEqual([]);
    expect(healthOf(run.observe, 4_000).reasons).toEqual([
      { code: 'REVOCATION_NOT_PURGED', severity: 'critical', message: '1 revocation not purged from the cache; the oldest arrived 3 s ago' },
    ]);
  });

  it('old content served and malformed messages are warnings with their figures', () => {
    const run = subscribedToAll();
    run.feed({ type: 'ServeCommanded', nowMs: 19_000, jitter: 0, uri: uris[0]!, subject: 'default' });
    run.feed({ type: 'NotificationArrived', nowMs: 19_001, jitter: 0, sessionGeneration: 1, method: 'notifications/resources/updated', params: {} });
    const health = healthOf(run.observe, 19_001, { serveAgeMsMax: 10_000 });
    expect(health.reasons).toEqual([
      { code: 'SERVE_AGE_HIGH', severity: 'warning', message: 'content up to 19 s old was served in 10 min (bound 10 s)' },
      { code: 'PROTOCOL_REJECTIONS', severity: 'warning', message: '1 malformed message rejected in 10 min' },
    ]);
    expect(health.verdict).toBe('degraded');
  });

  it('never connected is critical', () => {
    expect(healthOf(new Run().observe, 0).reasons.map((reason) => reason.code)).toEqual(['NEVER_CONNECTED']);
  });
});
