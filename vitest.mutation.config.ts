// Only the fixed mutation gate (scripts/mutation-gate.spec.ts), for Stryker's vitest runner (npm run mutation).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['scripts/mutation-gate.spec.ts'],
    testTimeout: 120_000,
  },
});
