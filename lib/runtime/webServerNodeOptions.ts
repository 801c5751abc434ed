/**
 * NODE_OPTIONS for the web server's process (`npm start`, the browser tests' servers and bench:ui start it
 * with these): V8's young generation held to 4 MB a semi-space instead of 16. V8 keeps both semi-spaces
 * committed once they have grown, so an idle server held about 29 MB of an emptied young generation. A page's
 * garbage is short-lived, and the old generation's growth is capped at run time (lowMemoryRuntime.ts), but the
 * young generation's size is fixed when the process starts, hence a start flag rather than a call there.
 * Measured with bench:ui's review pages at 100,000 rows on SQLite, with that cap and a 4 MB page cache: the
 * server idles at 154 MB instead of 175 and peaks at about 215 MB with every page's median within noise.
 * The caller's own NODE_OPTIONS come after, so a flag set there wins.
 */
export function webServerNodeOptions(callerOptions: string | undefined): string {
  return [WEB_SERVER_V8_FLAGS, callerOptions ?? ""].join(" ").trim();
}

const WEB_SERVER_V8_FLAGS = "--max-semi-space-size=4";
