/**
 * The request ids an upload has seen so far and the row that first used each: what tells a row that its
 * request_id is already taken. An upload may hold a million rows, and a Map of a million short strings took
 * 58 MB of heap (each string and each entry is an object of its own); here the ids' UTF-8 bytes sit end to
 * end in one buffer, with an open-addressing table of offsets beside them: about 32 bytes an id (a
 * 10-character id), exact (ids are compared byte for byte, never by hash alone).
 */
export class RequestIdIndex {
  /** The ids' UTF-8 bytes, end to end. */
  private bytes: Buffer = Buffer.allocUnsafe(1 << 16);
  private used = 0;
  /** Per entry: where its id starts in `bytes` (it ends where the next begins), and its row (0: deleted). */
  private starts = new Uint32Array(1 << 10);
  private rows = new Uint32Array(1 << 10);
  private entries = 0;
  /** Open addressing: entry index + 1 per slot, 0 for an empty slot. A power of two long. */
  private slots = new Uint32Array(1 << 11);
  /** Entries whose row was deleted still hold their slot, so the table is rebuilt when they pile up. */
  private live = 0;

  get size(): number {
    return this.live;
  }

  /** The bytes its buffers hold (what it costs, whatever the ids). */
  get byteSize(): number {
    return this.bytes.length + this.starts.byteLength * 2 + this.slots.byteLength;
  }

  get(id: string): number | undefined {
    const entry = this.find(Buffer.from(id, "utf8")).entry;
    return entry === -1 || this.rows[entry] === 0 ? undefined : this.rows[entry];
  }

  set(id: string, row: number): void {
    if (row <= 0 || !Number.isSafeInteger(row)) throw new RangeError("a row number is a positive integer");
    const encoded = Buffer.from(id, "utf8");
    const found = this.find(encoded);
    if (found.entry !== -1) {
      if (this.rows[found.entry] === 0) this.live += 1;
      this.rows[found.entry] = row;
      return;
    }
    if ((this.entries + 1) * 4 > this.slots.length * 3) {
      this.rebuild();
      return this.set(id, row);
    }
    const entry = this.append(encoded, row);
    this.slots[found.slot] = entry + 1;
    this.live += 1;
  }

  delete(id: string): void {
    const entry = this.find(Buffer.from(id, "utf8")).entry;
    if (entry === -1 || this.rows[entry] === 0) return;
    // Kept in the table (another id may have probed past it) with no row: get() then finds it absent.
    this.rows[entry] = 0;
    this.live -= 1;
  }

  /** Every id held, with its row, in the order first set. */
  *idsAndRows(): Generator<[string, number]> {
    for (let entry = 0; entry < this.entries; entry++)
      if (this.rows[entry] !== 0)
        yield [this.bytes.toString("utf8", this.starts[entry], this.endOf(entry)), this.rows[entry]];
  }

  /** The entry holding `id` (-1 when none, with the empty slot it would take). */
  private find(encoded: Buffer): { entry: number; slot: number } {
    const mask = this.slots.length - 1;
    for (let slot = hashOf(encoded) & mask; ; slot = (slot + 1) & mask) {
      const held = this.slots[slot];
      if (held === 0) return { entry: -1, slot };
      const entry = held - 1;
      const start = this.starts[entry];
      const end = this.endOf(entry);
      if (end - start === encoded.length && this.bytes.compare(encoded, 0, encoded.length, start, end) === 0)
        return { entry, slot };
    }
  }

  private append(encoded: Buffer, row: number): number {
    if (this.used + encoded.length > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + encoded.length));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    if (this.entries === this.starts.length) {
      this.starts = grow(this.starts);
      this.rows = grow(this.rows);
    }
    encoded.copy(this.bytes, this.used);
    const entry = this.entries;
    this.starts[entry] = this.used;
    this.rows[entry] = row;
    this.used += encoded.length;
    this.entries += 1;
    return entry;
  }

  /** Drops deleted entries and re-places the rest in a table with room for twice as many. */
  private rebuild(): void {
    // Nothing deleted (the usual case): only the table grows. Copying the ids and their offsets as well put
    // about 20 MB more at a million-row upload's peak, for nothing to drop.
    if (this.live === this.entries) return this.reslot(this.slots.length * 2);
    const keep: number[] = [];
    for (let entry = 0; entry < this.entries; entry++) if (this.rows[entry] !== 0) keep.push(entry);
    let length = this.slots.length;
    while ((keep.length + 1) * 2 * 4 > length * 3) length *= 2;
    const slots = new Uint32Array(length);
    const mask = length - 1;
    const bytes = Buffer.allocUnsafe(Math.max(1 << 16, this.used));
    const starts = new Uint32Array(Math.max(1 << 10, Math.ceil(keep.length * 1.5)));
    const rows = new Uint32Array(starts.length);
    let used = 0;
    keep.forEach((old, entry) => {
      const length = this.endOf(old) - this.starts[old];
      this.bytes.copy(bytes, used, this.starts[old], this.endOf(old));
      starts[entry] = used;
      rows[entry] = this.rows[old];
      let slot = hashOf(bytes.subarray(used, used + length)) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = entry + 1;
      used += length;
    });
    Object.assign(this, { bytes, starts, rows, slots, used, entries: keep.length });
  }

  /** Places every entry in a new table of `length` slots. */
  private reslot(length: number): void {
    const slots = new Uint32Array(length);
    const mask = length - 1;
    for (let entry = 0; entry < this.entries; entry++) {
      let slot = hashOf(this.bytes.subarray(this.starts[entry], this.endOf(entry))) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = entry + 1;
    }
    this.slots = slots;
  }

  private endOf(entry: number): number {
    return entry + 1 < this.entries ? this.starts[entry + 1] : this.used;
  }
}

function grow(array: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  const grown = new Uint32Array(array.length * 2);
  grown.set(array);
  return grown;
}

/** FNV-1a over the id's bytes. */
function hashOf(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  return hash >>> 0;
}
