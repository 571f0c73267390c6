/**
 * Part 1 of 2 of a release gate run as vitest tests: vitest --shard splits test files, so a gate meant to
 * spread over vitest shards is split over files (see cli/vitest-gate.ts). Every part uses the same seed and
 * interleavings; part k/2 runs the same slice as `fencesim gate --shard k/2`.
 */
import { test } from 'vitest';
import { gateTest } from '../index.js';

gateTest({ test, seed: 20_241_129, interleavings: 400, scenario: 'swarm', client: 'reference', chunk: 100, part: '1/2' });
