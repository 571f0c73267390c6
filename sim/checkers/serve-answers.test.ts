/**
 * answer_unrecorded for serve commands (sim/checkers/availability.ts `answersRequired`): a step client (the world sets
 * the flag) answers every serve command in its own step with a ContentServed or a ContentRefused of that URI and
 * subject; a step with neither (nothing, an effect without a type, an answer for another subject) is a violation. A
 * module client (flag unset) may answer later and is not judged for it.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ClientEffect } from '../../core/types.js';
import { subjects } from '../actors/server.js';
import { Oracle, invariantIndex } from '../oracle.js';
import { truth } from '../../test/oracle-steps.js';

const uri = 'test://static/resource/1';
let oracle: Oracle;
const violated = (): number => oracle.counts[invariantIndex.answer_unrecorded]!;
const subject = subjects[0]!;

function serveStep(effects: ClientEffect[], timeMs = 1_000): void {
  oracle.observe({ kind: 'serve', resource: 0, subject: 0, own: true, connected: true, session: 1, timeMs });
  oracle.judge(effects, truth({ timeMs }));
}

beforeEach(() => {
  oracle = new Oracle([uri], 1);
  oracle.availability.answersRequired = true;
});

describe('answer_unrecorded: a serve command is answered in its step', () => {
  it('passes a refusal or content served to the subject', () => {
    serveStep([{ type: 'ContentRefused', uri, subject, reason: 'nothing cached' }]);
    serveStep([{ type: 'ContentServed', uri, subject, digest: 'd' }], 2_000);
    expect(violated()).toBe(0);
    expect(oracle.checks[invariantIndex.answer_unrecorded]).toBe(2);
  });

  it('fails a step that answers nothing, or only another subject', () => {
    serveStep([]);
    expect(violated()).toBe(1);
    serveStep([{} as ClientEffect], 2_000);
    expect(violated()).toBe(2);
    serveStep([{ type: 'ContentRefused', uri, subject: subject + 'x', reason: 'no' }], 3_000);
    expect(violated()).toBe(3);
  });

  it('does not judge a module client, which may answer in a later step', () => {
    oracle.availability.answersRequired = false;
    serveStep([]);
    expect(violated()).toBe(0);
  });
});
