/** The probe's online checks on synthetic observations: each invariant catches its violation; memory is per URI. */
import { describe, expect, it } from 'vitest';
import type { ClientEffect } from '../../../core/types.js';
import { ProbeRecorder } from './probe-checks.js';

const A = 'mem://a';
const effect = (fields: Record<string, unknown>): ClientEffect => fields as unknown as ClientEffect;
const accepted = (readOrdinal: number, watermarkBefore: number, digest = `d${readOrdinal}`): ClientEffect => effect({ type: 'VersionAccepted', uri: A, readOrdinal, watermarkBefore, digest });
const transitioned = (event: string): ClientEffect => effect({ type: 'Transitioned', uri: A, event });
const verdicts = (recorder: ProbeRecorder): Record<string, boolean> => Object.fromEntries(recorder.invariants().map((check) => [check.name, check.ok]));

function subscribedRecorder(): ProbeRecorder {
  const recorder = new ProbeRecorder(100);
  recorder.watch([A]);
  recorder.effect(transitioned('subscribe_acked'), 10);
  recorder.effect(accepted(1, 0), 20);
  return recorder;
}

describe('ProbeRecorder', () => {
  it('a clean run holds every invariant and counts what it checked', () => {
    const recorder = subscribedRecorder();
    recorder.effect(accepted(2, 1), 30);
    recorder.serve(A, { served: true, uri: A, text: 'x', mimeType: 'text/plain', digest: 'd2' } as never, 31);
    recorder.effect(transitioned('unsubscribe_begun'), 40);
    recorder.effect(effect({ type: 'SubscriptionClosed', uri: A, outcome: 'ACKED' }), 50);
    recorder.delivered(120, A); // within ACK + grace
    expect(Object.values(verdicts(recorder)).every(Boolean)).toBe(true);
    expect(recorder.invariants().find((check) => check.name === 'accepted_ordinals_increase')!.checked).toBe(2);
    expect(recorder.subscriptions()[0]).toMatchObject({ subscribeAckAtMs: 10, versionsAccepted: 2, unsubscribeBeganAtMs: 40, unsubscribeAckAtMs: 50, updatesDeliveredAfterGrace: 0 });
  });

  it('each invariant catches its violation', () => {
    const ordinals = subscribedRecorder();
    ordinals.effect(accepted(1, 0), 30);
    expect(verdicts(ordinals).accepted_ordinals_increase).toBe(false);

    const closing = subscribedRecorder();
    closing.effect(transitioned('unsubscribe_begun'), 30);
    closing.effect(accepted(2, 1), 31);
    closing.effect(effect({ type: 'RequestSent', uri: A, method: 'resources/read' }), 32);
    expect(verdicts(closing)).toMatchObject({ no_accept_after_unsubscribe_began: false, no_read_after_unsubscribe_began: false });

    const late = subscribedRecorder();
    late.effect(effect({ type: 'SubscriptionClosed', uri: A, outcome: 'ACKED' }), 50);
    late.delivered(151, A);
    expect(verdicts(late).no_update_after_unsubscribe_ack).toBe(false);

    const served = subscribedRecorder();
    served.serve(A, { served: true, uri: A, text: 'forged', mimeType: 'text/plain', digest: 'never-accepted' } as never, 60);
    expect(verdicts(served).served_only_accepted).toBe(false);
  });

  it('a million updates on the wire: counters, not lists', () => {
    const recorder = subscribedRecorder();
    for (let index = 0; index < 1_000_000; index++) {
      recorder.onWire(index, A);
      recorder.delivered(index, A);
      recorder.onWire(index, 'mem://not-subscribed');
    }
    const [subscription] = recorder.subscriptions();
    expect(subscription).toMatchObject({ updatesOnWire: 1_000_000, updatesDelivered: 1_000_000 });
    expect(subscription!.updateGapsMs).toHaveLength(50);
    expect(recorder.changesObserved()).toBe(1_000_000);
  });
});
