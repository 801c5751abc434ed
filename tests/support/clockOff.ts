import { vi } from "vitest";

/**
 * From here on this process's clock reads `offsetMs` off the store's (which is this machine's real clock): a
 * server or worker on a machine whose clock is wrong. Undo with vi.useRealTimers().
 */
export function clockOff(offsetMs: number): void {
  vi.setSystemTime(new Date(vi.getRealSystemTime() + offsetMs));
}
