import v8 from "node:v8";

/**
 * Keeps a long process's resident memory small whatever the run's size (called first thing, before the
 * database is opened). Two V8 settings:
 * - `--liftoff-only`: Prisma's query compiler and schema engine are WebAssembly modules, which V8 by default
 *   recompiles in the background with its optimising compiler; that second copy of their code is about 60 MB
 *   of a CLI that otherwise idles at about 105 MB, and about 75 MB of the web server (idle 260 → 183 MB,
 *   after the run, rows and compare pages of a 100,000-row run 348 → 276 MB, with the same page times). The
 *   baseline compiler's code is what runs anyway until then, and a query's compilation is a small part of
 *   what a judgment, a page or an exported page costs.
 * - `--optimize-for-size` (`collectEagerly`): on a machine with memory to spare V8 lets garbage pile up
 *   before a full collection (the CLI judging 2,000 rows grew by about 1.5 MB a second, all of it garbage: a
 *   snapshot after a collection stayed at 33 MB); this makes it collect as the heap grows instead. It pays
 *   where the live heap is small and the CPU is not the limit, as in the CLI: judging 2,000 rows on the
 *   offline judge took no longer (32 s; 35 s without). Not in `npm run worker`, which judges as fast as its
 *   CPU allows (in bench:scale one worker at 64 calls in flight reached 0.76–0.77 of the ideal with both
 *   settings, 0.83–0.90 with neither). Not in the web server, whose live heap (Next.js and React, about
 *   100 MB) makes each collection dear: there it held a 100,000-row CSV export at 235 MB instead of 594 MB,
 *   but took 27 s instead of 13 s, and the run page took 95–111 ms instead of 38–43 ms on a loaded machine.
 * Both only take effect for what is compiled or allocated after the call.
 */
export function useLowMemoryRuntime(options: { collectEagerly: boolean }): void {
  v8.setFlagsFromString("--liftoff-only");
  if (options.collectEagerly) v8.setFlagsFromString("--optimize-for-size");
}
