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
 * - `--heap-growing-percent`: on a machine with memory to spare V8 lets garbage pile up before a full
 *   collection (a judging process's live heap stays near 35 MB, yet a worker at 64 calls in flight reached
 *   307 MB). Capping how far the heap may grow past what the last collection kept makes it collect sooner:
 *   in bench:engine (2,000 rows × 6 calls, SQLite, 64 in flight, 200 ms a call) the worker peaked at 187 MB
 *   at the same CPU per call (1.94 ms), and the CLI at 196 MB with 2.31 ms per call where
 *   `--optimize-for-size`, which it used before, cost 3.21 (that flag also makes V8's compiled code smaller
 *   and slower, not only its heap). The web server too: after bench:ui's review pages at 100,000 rows it
 *   held 177 MB of heap of which a full collection kept 81, and it now collects at about 1.2 times what it
 *   keeps (peak 338 → 229 MB with its 4 MB young generation, webServerEnv.ts; page medians within
 *   noise).
 * Both only take effect for what is compiled or allocated after the call.
 */
export function useLowMemoryRuntime(): void {
  v8.setFlagsFromString("--liftoff-only");
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/** Each full collection lets the heap grow to 1.2 times what it kept (V8's own factor is 1.1 to 4, by heap size and speed). */
const HEAP_GROWING_PERCENT = 20;
