// Next.js calls register() once when a server process starts: runs that were
// in progress when the last server stopped (or was killed) resume here, and
// uploads a killed server left half-way are discarded.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // Before the database client compiles its WebAssembly (lib/runtime/lowMemoryRuntime.ts has the figures).
  const { useLowMemoryRuntime } = await import("./lib/runtime/lowMemoryRuntime");
  useLowMemoryRuntime();
  const { discardOrphanedImportsNow } = await import("./lib/server/importOwnership");
  await discardOrphanedImportsNow();
  const { startRunResumer } = await import("./lib/server/runScheduler");
  startRunResumer();
}
