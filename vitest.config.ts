import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['core/**/*.test.ts', 'observe/**/*.test.ts', 'sim/**/*.test.ts', 'scenarios/**/*.test.ts', 'reports/**/*.test.ts', 'cli/**/*.test.ts', 'adapters/**/*.test.ts', 'test/**/*.test.ts', 'indexer/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    coverage: { provider: 'v8', include: ['core/**', 'observe/**', 'indexer/**', 'sim/**', 'scenarios/**', 'reports/**', 'cli/**'], exclude: ['**/*.test.ts'] },
  },
});
