import { databaseUrlOf, type Db } from "@/lib/db/client";
import { listFlips, cursorOf, type Flip, type FlipCursor, type PairedCounts } from "@/lib/db/judgments/compareQueries";
import { completedStamp, readOfCompletedRuns, type RunState } from "@/lib/db/cache/completedRunReads";
import { createPromiseCache } from "@/lib/db/cache/promiseCache";

/**
 * The compare page's flip list, a page at a time. Two completed runs' flips cannot change (completedRunCache.ts
 * says why), so a page of them is read once and kept; a run being judged is read afresh on every request. And
 * where the page before was read, its last flip is kept as a bookmark, so the next page starts right after it
 * by key instead of counting its way past every flip before it (listFlips reads in row order and stops at the
 * page's end: page 400 by offset reads 20,000 flips first, by key 50).
 */
export type FlipFilter = { metric?: string; direction?: "regressions" | "improvements" };

/** Pages kept: 50 flips each, a few tens of kilobytes; apart from the comparisons' cache, so paging never evicts those. */
const MAX_PAGES = 1000;
const pages = createPromiseCache<unknown>(MAX_PAGES);
/** Bookmarks kept (a page's last flip, a few dozen bytes each), the oldest forgotten first. */
const MAX_BOOKMARKS = 20_000;
const bookmarks = new Map<string, FlipCursor>();

export async function readFlipPage(
  db: Db,
  baseline: RunState,
  candidate: RunState,
  options: FlipFilter & { page: number; pageSize: number; paired?: PairedCounts[] },
): Promise<{ items: Flip[]; total: number }> {
  const { page, pageSize } = options;
  const filter = { metric: options.metric, direction: options.direction };
  const stamps = [completedStamp(baseline), completedStamp(candidate)];
  // Bookmarks only for completed runs: a run being judged gains and loses flips between requests.
  const listKey = stamps.every((stamp) => stamp !== null)
    ? [databaseUrlOf(db), ...stamps, filter.metric ?? "", filter.direction ?? "", pageSize].join("\u0000")
    : null;
  const read = async () => {
    const after = listKey === null || page === 1 ? undefined : bookmarks.get(`${listKey}\u0000${page - 1}`);
    const flips = await listFlips(db, baseline.id, candidate.id, {
      ...filter,
      offset: (page - 1) * pageSize,
      limit: pageSize,
      after,
      paired: options.paired,
    });
    const last = flips.items.at(-1);
    if (listKey !== null && last && flips.items.length === pageSize)
      remember(`${listKey}\u0000${page}`, cursorOf(last));
    return flips;
  };
  const scope = `${databaseUrlOf(db)}|flips|${filter.metric ?? ""}|${filter.direction ?? ""}|${page}|${pageSize}`;
  return readOfCompletedRuns(db, scope, [baseline, candidate], read, pages) as Promise<{
    items: Flip[];
    total: number;
  }>;
}

/** Forgets every kept page and bookmark (tests). */
export function clearFlipPages(): void {
  pages.clear();
  bookmarks.clear();
}

/** How many pages of completed pairs were read from the store and how many came from memory, since the process started. */
export function flipPageCounts(): { read: number; fromCache: number } {
  const { created, fromCache } = pages.counts();
  return { read: created, fromCache };
}

function remember(key: string, cursor: FlipCursor): void {
  bookmarks.delete(key);
  bookmarks.set(key, cursor);
  for (const oldest of bookmarks.keys()) {
    if (bookmarks.size <= MAX_BOOKMARKS) break;
    bookmarks.delete(oldest);
  }
}
