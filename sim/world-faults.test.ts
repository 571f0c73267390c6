/**
 * The world's issue-3 mechanics, observed from the client's side: capabilities, listing, list_changed,
 * subjects and permission errors, the authorization feed, workload commands, and client crashes.
 */
import { describe, expect, it } from 'vitest';

import { timerName, type ClientEffect, type ClientInput, type ClientUnderTest, type StepResult } from '../core/types.js';
import { naiveCacheAfterRevoke, naiveSingleScan, type NaiveState } from '../scenarios/naive.js';
import type { Scenario } from '../scenarios/scenario.js';
import { plan, workload, catalogResources, discoveryWorkload, servingWorkload } from '../scenarios/shape.js';
import { ratio, type FaultPlan } from './faults.js';
import { deriveSeed } from './prng.js';
import { runInterleaving } from './world.js';

interface Recording {
  inputs: ClientInput[];
  effects: ClientEffect[];
}

function recorded<S>(client: ClientUnderTest<S>, extra: Partial<ClientUnderTest<S>> = {}): { client: ClientUnderTest<S>; log: Recording } {
  const log: Recording = { inputs: [], effects: [] };
  return {
    log,
    client: {
      ...client,
      ...extra,
      step: (state, input) => {
        log.inputs.push(structuredClone(input));
        const result = client.step(state, input);
        log.effects.push(...result.effects);
        return result;
      },
    },
  };
}

function scenario(name: string, faults: FaultPlan, snapshotId = false, serving = false): Scenario {
  return {
    name,
    description: name,
    targets: ['convergence_60s'],
    catches: [],
    sometimes: [],
    plan: (chooser) =>
      plan(faults, workload(chooser, { ...discoveryWorkload, ...(serving ? servingWorkload : {}) }, catalogResources, 4), { snapshotId, pageSizeMax: 3 }),
  };
}

function run(target: Scenario, client: ClientUnderTest<any>, index: number) {
  return runInterleaving(deriveSeed(99, index), target, client, { trace: false, record: false });
}

const ofType = <T extends ClientInput['type']>(inputs: ClientInput[], type: T): Extract<ClientInput, { type: T }>[] =>
  inputs.filter((input): input is Extract<ClientInput, { type: T }> => input.type === type);

describe('world: capabilities', () => {
  it('without faults the server offers subscribe and listChanged; snapshotId as the plan says', () => {
    for (const snapshotId of [false, true]) {
      const { client, log } = recorded(naiveSingleScan);
      run(scenario('plain', {}, snapshotId), client, 1);
      expect(ofType(log.inputs, 'Connected')[0]!.capabilities).toEqual({ resources: true, subscribe: true, listChanged: true, snapshotId });
    }
  });

  it('no-subscribe-capability: subscribe answers -32601 Method not found and no update notification ever arrives', () => {
    const { client, log } = recorded(naiveSingleScan);
    run(scenario('no-subscribe', { 'no-subscribe-capability': ratio(1, 1) }), client, 2);
    expect(ofType(log.inputs, 'Connected')[0]!.capabilities.subscribe).toBe(false);
    const subscribeIds = new Set(log.effects.flatMap((effect) => (effect.type === 'RequestSent' && effect.method === 'resources/subscribe' ? [effect.requestId] : [])));
    const answers = ofType(log.inputs, 'ResponseArrived').filter((input) => subscribeIds.has(input.requestId as number));
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of answers) expect(answer.outcome).toMatchObject({ type: 'error', code: -32601, message: 'Method not found' });
    expect(ofType(log.inputs, 'NotificationArrived').filter((input) => input.method === 'notifications/resources/updated')).toEqual([]);
  });

  it('list_changed arrives after deletes and re-creates, never without the listChanged capability', () => {
    const withCapability = recorded(naiveSingleScan);
    run(scenario('list-changed', {}), withCapability.client, 3);
    const listChanged = ofType(withCapability.log.inputs, 'NotificationArrived').filter((input) => input.method === 'notifications/resources/list_changed');
    expect(listChanged.length).toBeGreaterThan(0);
    expect(listChanged[0]!.params).toEqual({});
    const without = recorded(naiveSingleScan);
    run(scenario('no-list-changed', { 'no-list-changed-capability': ratio(1, 1) }), without.client, 3);
    expect(ofType(without.log.inputs, 'Connected')[0]!.capabilities.listChanged).toBe(false);
    expect(ofType(without.log.inputs, 'NotificationArrived').filter((input) => input.method === 'notifications/resources/list_changed')).toEqual([]);
  });
});

function recordedRun(index: number): Recording {
  const { client, log } = recorded(naiveSingleScan);
  run(scenario('workload', {}), client, index);
  return log;
}

describe('world: workload commands', () => {
  it('subscribes every resource as a subject, discovers at the start and periodically, runs completeness tasks', () => {
    const { client, log } = recorded(naiveSingleScan);
    const result = run(scenario('workload', {}), client, 4);
    const subscribes = ofType(log.inputs, 'SubscribeCommanded');
    expect(subscribes.length).toBe(result.plan.workload.resources.length);
    for (const command of subscribes) expect(['alice', 'bob']).toContain(command.subject);
    let periodic = 0;
    for (let index = 0; index < 5; index++) {
      const discoveries = ofType(index === 0 ? log.inputs : recordedRun(index + 10).inputs, 'DiscoverCommanded');
      expect(discoveries[0]!.nowMs).toBeLessThan(100);
      for (let next = 1; next < discoveries.length; next++) {
        const gap = discoveries[next]!.nowMs - discoveries[next - 1]!.nowMs;
        expect(gap).toBeGreaterThanOrEqual(5_000);
        expect(gap).toBeLessThanOrEqual(15_000);
        periodic++;
      }
    }
    expect(periodic).toBeGreaterThan(0);
    const tasks = ofType(log.inputs, 'CompletenessTaskCommanded');
    expect(tasks.length).toBeGreaterThan(0);
    for (const task of tasks) expect(['cleanup', 'revocation-sweep']).toContain(task.task);
    // The single-scan client lists: page requests carry the cursor of the previous page, the first none.
    const lists = log.effects.filter((effect) => effect.type === 'RequestSent' && effect.method === 'resources/list');
    expect(lists.length).toBeGreaterThan(0);
    expect(lists[0]).not.toHaveProperty('cursor');
  });

  it('serves each resource to the subject it is subscribed as, during the fault phase only', () => {
    const { client, log } = recorded(naiveCacheAfterRevoke);
    const result = run(scenario('serving', {}, false, true), client, 5);
    const subjectOf = new Map(ofType(log.inputs, 'SubscribeCommanded').map((command) => [command.uri, command.subject]));
    const serves = ofType(log.inputs, 'ServeCommanded');
    expect(serves.length).toBeGreaterThan(result.plan.workload.resources.length);
    for (const serve of serves) {
      expect(serve.subject).toBe(subjectOf.get(serve.uri));
      expect(serve.nowMs).toBeLessThan(result.plan.workload.faultPhaseMs);
    }
  });
});

describe('world: permission revocation', () => {
  const revocation = scenario('revocation', { 'permission-revocation': ratio(1, 2) }, false, true);

  it('a revoked subject reads -32003 Permission denied; the feed tells the client 100 ms - 5 s later, or loses it', () => {
    let denied = 0;
    let fed = 0;
    let lost = 0;
    for (let index = 0; index < 30; index++) {
      const { client, log } = recorded(naiveCacheAfterRevoke);
      const result = run(revocation, client, index);
      const readsBySubject = new Map<number, string>();
      for (const effect of log.effects) if (effect.type === 'RequestSent' && effect.subject !== undefined) readsBySubject.set(effect.requestId, effect.subject);
      for (const response of ofType(log.inputs, 'ResponseArrived')) {
        if (response.outcome.type !== 'error' || response.outcome.code !== -32003) continue;
        denied++;
        expect(response.outcome).toMatchObject({ message: 'Permission denied', data: { subject: readsBySubject.get(response.requestId as number) } });
      }
      const feed = ofType(log.inputs, 'AuthorizationChanged');
      for (const event of feed) expect(event).toMatchObject({ allowed: false });
      fed += feed.length;
      lost += result.oracle.revocation.revocations - feed.length;
    }
    expect(denied).toBeGreaterThan(0);
    expect(fed).toBeGreaterThan(0);
    expect(lost).toBeGreaterThan(0);
  });
});

describe('world: client crash', () => {
  const crashing = scenario('crash', { 'client-crash': ratio(1, 4), 'slow-read': ratio(1, 2) });

  it('a client with a durable ledger restarts from a JSON copy of it; its pre-crash timers never fire', () => {
    let recovered = 0;
    let staleTimers = 0;
    let crashedRuns = 0;
    for (let index = 0; index < 10; index++) {
      let epoch = 0;
      const durable = (state: NaiveState): unknown => ({ subscriptions: state.subscriptions, epoch: ++epoch, marker: new Date(0) });
      const recover = (config: NaiveState['config'], saved: unknown): StepResult<NaiveState> => {
        recovered++;
        expect(typeof (saved as { marker: unknown }).marker).toBe('string'); // it went through JSON
        return { state: { ...naiveCacheAfterRevoke.init(config), subscriptions: (saved as { subscriptions: NaiveState['subscriptions'] }).subscriptions }, effects: [] };
      };
      const armed = new Set<string>();
      const { client, log } = recorded(naiveCacheAfterRevoke, { durable, recover });
      const wrapped: ClientUnderTest<NaiveState> = {
        ...client,
        step: (state, input) => {
          if (input.type === 'TimerFired' && !armed.has(`${timerName(input.timer)}@${input.deadlineMs}`)) staleTimers++;
          const result = client.step(state, input);
          for (const effect of result.effects) if (effect.type === 'TimerArmed') armed.add(`${timerName(effect.timer)}@${effect.deadlineMs}`);
          return result;
        },
        recover: (config, saved) => {
          armed.clear();
          return recover(config, saved);
        },
      };
      const result = run(crashing, wrapped, index);
      if (result.oracle.crashes > 0) crashedRuns++;
      // Recovered from the ledger: the application does not subscribe again (each URI at most once, at the start).
      const subscribed = log.inputs.flatMap((input) => (input.type === 'SubscribeCommanded' ? [input.uri] : []));
      expect(subscribed.length).toBeGreaterThan(0);
      expect(new Set(subscribed).size).toBe(subscribed.length);
    }
    expect(crashedRuns).toBeGreaterThanOrEqual(7); // a crash is drawn at 1 in 4 fault ticks: most runs crash
    expect(recovered).toBeGreaterThan(0);
    expect(staleTimers).toBe(0);
  });

  it('a client without one starts over and the application subscribes again; pre-crash responses surface on the old session', () => {
    let oldSessionResponses = 0;
    for (let index = 0; index < 20; index++) {
      const { client, log } = recorded(naiveCacheAfterRevoke);
      const result = run(crashing, client, index);
      const subscribes = ofType(log.inputs, 'SubscribeCommanded').length;
      if (result.oracle.crashes > 0) expect(subscribes).toBeGreaterThan(result.plan.workload.resources.length);
      let session = 0;
      for (const input of log.inputs) {
        if (input.type === 'Connected') session = input.sessionGeneration;
        if (input.type === 'ResponseArrived' && input.sessionGeneration < session) oldSessionResponses++;
      }
    }
    expect(oldSessionResponses).toBeGreaterThan(0);
  });
});
