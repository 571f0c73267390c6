/**
 * Freshness of served content (the strategy benchmark's "stale served"): a ContentServed is stale when the
 * content it names (by the digest the client accepted it under) is older than the resource's truth now.
 */
import { describe, expect, it } from 'vitest';
import type { ClientEffect } from '../../core/types.js';
import { causeNotification, causeWorkload, Oracle, type StepTruth } from '../oracle.js';
import { contentFor } from '../actors/server.js';
import { truth as stepTruth } from '../../test/oracle-steps.js';

const uri = 'test://static/resource/1';

function truth(timeMs: number, cause: number, version = 0): StepTruth {
  return stepTruth({ timeMs, cause, requestSession: 1, requestSentAtMs: timeMs - 5, servedResource: 0, servedVersion: version });
}

function accept(oracle: Oracle, version: number, timeMs: number): void {
  const effect: ClientEffect = { type: 'VersionAccepted', encoding: 'text', uri, text: contentFor(uri, version), mimeType: 'text/plain', digest: `d${version}`, readOrdinal: version, watermarkBefore: 0, subscriptionGeneration: 1, sessionGeneration: 1 };
  oracle.judge([effect], truth(timeMs, causeNotification, version));
}

function serve(oracle: Oracle, digest: string, timeMs: number): void {
  oracle.judge([{ type: 'ContentServed', uri, subject: 'alice', digest }], truth(timeMs, causeWorkload));
}

function change(oracle: Oracle, version: number, timeMs: number): void {
  oracle.registerContent(contentFor(uri, version), 0, version);
  oracle.onChange(0, version, timeMs);
}

describe('oracle: stale content served', () => {
  it('serving the latest accepted version is fresh until the truth moves on', () => {
    const oracle = new Oracle([uri], 1);
    oracle.registerContent(contentFor(uri, 1), 0, 1);
    oracle.onSubscribeCommand(0);
    accept(oracle, 1, 100);
    serve(oracle, 'd1', 200);
    expect(oracle.staleServes).toBe(0);
    change(oracle, 2, 300);
    serve(oracle, 'd1', 400);
    expect(oracle.staleServes).toBe(1);
    accept(oracle, 2, 500);
    serve(oracle, 'd2', 600);
    expect(oracle.staleServes).toBe(1);
    expect(oracle.revocation.served).toBe(3);
  });

  it('an older accepted version served after a newer one is stale; an undatable digest counts as stale', () => {
    const oracle = new Oracle([uri], 1);
    for (let version = 1; version <= 3; version++) change(oracle, version, version * 10);
    oracle.onSubscribeCommand(0);
    accept(oracle, 2, 100);
    accept(oracle, 3, 110);
    serve(oracle, 'd3', 120);
    serve(oracle, 'd2', 130);
    serve(oracle, 'never-accepted', 140);
    expect(oracle.staleServes).toBe(2);
  });
});
