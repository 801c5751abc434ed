/**
 * At most N uploads stream into the database at once in this process
 * (ASSAY_MAX_CONCURRENT_UPLOADS, default 2): each holds a writer and parses a
 * file, so a burst of them would starve runs and each other. The others wait
 * in arrival order and are told where they stand.
 */
export type UploadGate = {
  /** Resolves when the upload may start; `onQueued` is called first, once, if it has to wait. */
  enter(onQueued: (ahead: number, running: number) => void, signal?: AbortSignal): Promise<() => void>;
  stats(): { running: number; waiting: number };
};

export const DEFAULT_MAX_CONCURRENT_UPLOADS = 2;

export function createUploadGate(limit: number): UploadGate {
  let running = 0;
  const waiting: Array<{ start: () => void; cancel: () => void }> = [];
  const release = () => {
    running -= 1;
    const next = waiting.shift();
    if (next) next.start();
  };
  const ticket = () => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  };
  return {
    enter(onQueued, signal) {
      if (running < limit) {
        running += 1;
        return Promise.resolve(ticket());
      }
      onQueued(waiting.length, running);
      return new Promise((resolve, reject) => {
        const entry = {
          start: () => {
            signal?.removeEventListener("abort", entry.cancel);
            running += 1;
            resolve(ticket());
          },
          cancel: () => {
            const index = waiting.indexOf(entry);
            if (index !== -1) waiting.splice(index, 1);
            reject(new Error("the upload was abandoned while it waited"));
          },
        };
        waiting.push(entry);
        signal?.addEventListener("abort", entry.cancel, { once: true });
      });
    },
    stats: () => ({ running, waiting: waiting.length }),
  };
}

export function maxConcurrentUploadsFromEnv(env: Record<string, string | undefined> = process.env): number {
  const value = Number(env.ASSAY_MAX_CONCURRENT_UPLOADS);
  return Number.isInteger(value) && value >= 1 && value <= 64 ? value : DEFAULT_MAX_CONCURRENT_UPLOADS;
}

/** The process's one gate (shared by every request, kept on globalThis so a reloaded module finds it). */
export function serverUploadGate(): UploadGate {
  const holder = globalThis as unknown as { assayUploadGate?: UploadGate };
  return (holder.assayUploadGate ??= createUploadGate(maxConcurrentUploadsFromEnv()));
}
