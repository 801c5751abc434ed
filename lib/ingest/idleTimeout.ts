import { FileError } from "./errors";

/**
 * Passes the upload's chunks through, but fails the upload when none arrives
 * for `idleMs`: a client that stops sending (a closed laptop, a stalled proxy,
 * someone holding connections open on purpose) would otherwise keep its
 * import, its place among the concurrent uploads and its memory for ever.
 * On a timeout the source is told to stop (return()), which closes the body.
 */
export async function* withIdleTimeout(chunks: AsyncIterable<Uint8Array>, idleMs: number): AsyncGenerator<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  let finished = false;
  try {
    while (true) {
      let timer: NodeJS.Timeout | undefined;
      const idle = new Promise<"idle">((resolve) => {
        timer = setTimeout(() => resolve("idle"), idleMs);
      });
      const next = await Promise.race([iterator.next(), idle]).finally(() => clearTimeout(timer));
      if (next === "idle")
        throw new FileError(
          `No data arrived for ${formatSeconds(idleMs)}, so the upload was stopped. Nothing was stored; try again.`,
        );
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // Stop the source unless it ended by itself; don't wait for a stalled one to agree.
    if (!finished) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
