#!/bin/sh
# One batch of `npm run mutation`: scripts/mutation-batch.sh NAME FILE... scores the given core/ files under the
# fixed gate (stryker.config.json), niced, with its own incremental file (scripts/mutation-incremental/NAME.json,
# committed, so a re-run tests only changed mutants and before/after runs compare) and its own reports
# (mutation-report/NAME.json, NAME.html, NAME.log). Summarise every batch: node scripts/mutation-summary.mjs
# MUTATION_CONCURRENCY=N overrides the config's concurrency (1 on a machine shared with others); MUTATION_FORCE=1
# re-tests every mutant (the incremental file only notices changes of core/ and of the gate's spec, not of checkers).
set -e
name="$1"; shift
mkdir -p mutation-report scripts/mutation-incremental
config="mutation-report/$name.stryker.json"
node -e '
const [name, config, ...files] = process.argv.slice(1);
const base = JSON.parse(require("node:fs").readFileSync("stryker.config.json", "utf8"));
delete base.$schema;
Object.assign(base, {
  mutate: files,
  incrementalFile: `scripts/mutation-incremental/${name}.json`,
  tempDirName: `.stryker-tmp/${name}`,
  jsonReporter: { fileName: `mutation-report/${name}.json` },
  htmlReporter: { fileName: `mutation-report/${name}.html` },
  reporters: ["clear-text", "progress", "json", "html"],
});
if (process.env.MUTATION_CONCURRENCY) base.concurrency = Number(process.env.MUTATION_CONCURRENCY);
require("node:fs").writeFileSync(config, JSON.stringify(base, null, 2));
' "$name" "$config" "$@"
nice -n 15 npx stryker run "$config" ${MUTATION_FORCE:+--force} > "mutation-report/$name.log" 2>&1
