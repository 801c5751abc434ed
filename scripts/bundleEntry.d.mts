/** Bundles `entry` into `outfile` with esbuild for plain Node; returns esbuild's exit status (0 when it worked). */
export function bundleEntry(entry: string, outfile: string, options?: { root?: string }): number;
