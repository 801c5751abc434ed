import { TemporaryRowMap } from "@/lib/db/scratch/temporaryRowMap";
import { RequestIdIndex } from "./requestIdIndex";

/**
 * Ids held in memory before they move to a file: about 3 MB of RequestIdIndex (32 bytes an id). Uploads
 * this size or smaller never touch the disk.
 */
export const IN_MEMORY_REQUEST_IDS = 100_000;

/** Pages of the spilled ids SQLite may cache: what the spilled index costs in memory, whatever its size. */
const SPILLED_CACHE_KIB = 4096;

/**
 * The request ids an upload has seen and the row that first used each, in bounded memory. A million-row
 * upload's ids took 32 MB of RequestIdIndex, the one part of an upload that grew with its rows; past
 * IN_MEMORY_REQUEST_IDS they move to a temporary SQLite file (deleted by SQLite when closed, or when the
 * process dies) whose page cache is capped. Ids are compared byte for byte in both (SQLite's BINARY
 * collation on UTF-8). close() frees it; the upload calls it however it ends.
 */
export class SpillingRequestIds {
  private ids: RequestIdIndex | TemporaryRowMap = new RequestIdIndex();

  constructor(private readonly inMemoryIds = IN_MEMORY_REQUEST_IDS) {}

  get size(): number {
    return this.ids.size;
  }

  /** Whether the ids have moved to the file. */
  get spilled(): boolean {
    return this.ids instanceof TemporaryRowMap;
  }

  get(id: string): number | undefined {
    return this.ids.get(id);
  }

  set(id: string, row: number): void {
    if (this.ids instanceof RequestIdIndex && this.ids.size >= this.inMemoryIds && this.ids.get(id) === undefined)
      this.ids = spill(this.ids);
    this.ids.set(id, row);
  }

  delete(id: string): void {
    this.ids.delete(id);
  }

  close(): void {
    if (this.ids instanceof TemporaryRowMap) this.ids.close();
  }
}

function spill(memory: RequestIdIndex): TemporaryRowMap {
  const disk = new TemporaryRowMap(SPILLED_CACHE_KIB);
  for (const [id, row] of memory.idsAndRows()) disk.set(id, row);
  return disk;
}
