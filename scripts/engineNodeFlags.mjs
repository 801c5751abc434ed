// The node flags of the processes that run the engine on their own, `npm run eval` and `npm run worker`
// (run-compiled.mjs starts them with these), and of bench:engine's measured processes, so the benchmark measures
// them as they run.
//
// --max-semi-space-size=4: V8's young generation at most 2 × 4 MB (its default grows to 2 × 16 MB and stays
// committed). The CLI uploading 3,000 rows and judging them twice with every judge on the offline judge, then
// writing the CSV, peaked at 213 MB with the default, 204 MB at 8 and 190 MB at 4. It cannot be set once the
// process runs (lib/runtime/webServerEnv.ts gives the web server the same through NODE_OPTIONS).
export const ENGINE_NODE_FLAGS = ["--max-semi-space-size=4"];

/** The entry points that run the engine in a process of their own. */
export const ENGINE_ENTRIES = ["scripts/eval.ts", "scripts/worker.ts"];
