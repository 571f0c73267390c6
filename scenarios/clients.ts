/** The clients the harness ships: the reference core and the naive strategies it must catch. */
import { referenceClient } from '../core/reducer.js';
import type { ClientUnderTest } from '../core/types.js';
import {
  naiveCacheAfterRevoke,
  naiveNeverServe,
  naiveNoCloseFence,
  naiveNoResubscribe,
  naiveOverwrite,
  naiveSingleScan,
  naiveTrust404,
} from './naive.js';
import { era2026NaiveClients } from './era2026-naive.js';

export const clients: readonly ClientUnderTest<any>[] = [
  referenceClient,
  naiveOverwrite,
  naiveNoResubscribe,
  naiveNoCloseFence,
  naiveSingleScan,
  naiveCacheAfterRevoke,
  naiveTrust404,
  naiveNeverServe,
  // MCP 2026-07-28 (scenarios/era2026-naive.ts)
  ...era2026NaiveClients,
];

export function findClient(name: string): ClientUnderTest<any> | undefined {
  return clients.find((client) => client.name === name);
}

export function clientNames(): string[] {
  return clients.map((client) => client.name);
}
