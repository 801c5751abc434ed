/**
 * What the web server's process is started with (`npm start`, the browser tests' servers and bench:ui), on
 * top of its caller's environment. Both are read when a process starts, so neither can be set from inside it
 * as lowMemoryRuntime.ts sets V8's heap growth:
 * - NODE_OPTIONS `--max-semi-space-size=4`: V8's young generation at 4 MB a semi-space instead of 16. V8
 *   keeps both semi-spaces committed once they have grown, so an idle server held about 29 MB of an emptied
 *   young generation; a page's garbage is short-lived.
 * - glibc's malloc with two arenas (`MALLOC_ARENA_MAX=2`) that hand freed memory back above 64 KB at their
 *   top (`MALLOC_TRIM_THRESHOLD_`): each thread that allocates (libuv's pool, V8's helpers) otherwise may get
 *   an arena of its own, up to eight per core, each keeping what it once held. The server's native
 *   allocations are mostly on its main thread.
 * Measured with bench:ui's review pages of two 100,000-row runs on SQLite, with the heap-growth cap and a
 * 4 MB SQLite page cache: the server peaked at 338 MB with neither, 211 MB with the first, 194 MB with both
 * (195 with one arena and no trimming), every page's median within noise; bench:ui itself then measured
 * 199 MB on SQLite and 190 MB on PostgreSQL. A variable the caller set wins: its NODE_OPTIONS come after
 * these flags, and its malloc settings are kept.
 */
export function webServerEnv(callerEnv: Record<string, string | undefined>): Record<string, string> {
  return {
    NODE_OPTIONS: [WEB_SERVER_V8_FLAGS, callerEnv.NODE_OPTIONS ?? ""].join(" ").trim(),
    MALLOC_ARENA_MAX: callerEnv.MALLOC_ARENA_MAX ?? "2",
    MALLOC_TRIM_THRESHOLD_: callerEnv.MALLOC_TRIM_THRESHOLD_ ?? String(64 * 1024),
  };
}

const WEB_SERVER_V8_FLAGS = "--max-semi-space-size=4";
