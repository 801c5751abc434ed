import v8 from "node:v8";

/**
 * Keeps a command-line process's resident memory small whatever the run's size (called first thing, before
 * the database is opened). Two V8 settings, both measured on the eval CLI:
 * - `--liftoff-only`: Prisma's query compiler and schema engine are WebAssembly modules, which V8 by default
 *   recompiles in the background with its optimising compiler; that second copy of their code is about 60 MB
 *   of a process that otherwise idles at about 105 MB. The baseline compiler's code is what runs anyway until
 *   then, and a query's compilation is a small part of what a judgment or an exported page costs.
 * - `--optimize-for-size`: V8 otherwise lets garbage pile up to hundreds of MB before a full collection on a
 *   machine with memory to spare (the eval CLI grew by about 1.5 MB a second while judging, all of it
 *   garbage); this makes it collect as the heap grows instead.
 * Both only take effect for what is compiled or allocated after the call.
 */
export function useLowMemoryRuntime(): void {
  v8.setFlagsFromString("--liftoff-only");
  v8.setFlagsFromString("--optimize-for-size");
}
