// The resident memory of the app server's process tree, from /proc (Linux), for tests that send it hostile
// input and check that its memory stays bounded while it refuses.
import fs from "node:fs";

const SAMPLE_EVERY_MS = 20;

/** The highest resident memory (VmHWM) of a process and its children, summed. */
export function treePeakRss(pid: number): number {
  let total = 0;
  for (const id of treePids(pid)) {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${id}/status`, "utf8"));
      if (match) total += Number(match[1]) * 1024;
    } catch {
      // the process ended
    }
  }
  return total;
}

/**
 * The tree's peak resident memory while `action` runs: each process's high-water mark is reset first (writing
 * 5 to /proc/<pid>/clear_refs), so the page loads and uploads before it do not count, then sampled until the
 * action ends. Where the reset is refused the peak is the process's since it started, which only overstates.
 */
export async function peakRssDuring<T>(pid: number, action: () => Promise<T>): Promise<{ result: T; peak: number }> {
  for (const id of treePids(pid)) {
    try {
      fs.writeFileSync(`/proc/${id}/clear_refs`, "5");
    } catch {
      // not ours to reset, or the process ended
    }
  }
  let peak = treePeakRss(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, treePeakRss(pid))), SAMPLE_EVERY_MS);
  try {
    const result = await action();
    return { result, peak: Math.max(peak, treePeakRss(pid)) };
  } finally {
    clearInterval(sampler);
  }
}

function treePids(pid: number): number[] {
  return [pid, ...childPids(pid)];
}

function childPids(pid: number): number[] {
  try {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    return children.map(Number).flatMap((child) => [child, ...childPids(child)]);
  } catch {
    return [];
  }
}
