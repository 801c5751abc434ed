import { randomUUID } from "node:crypto";

let lastMs = 0;
let sequence = 0;

/**
 * A UUID version 7: the time in ms first, then a counter within the ms, then
 * random bits, so ids made one after another sort one after another. Rows,
 * chunks, work items and verdicts get these instead of random v4 ids because
 * each is a primary key, and rows' ids lead other indexes (a chunk's row, a
 * verdict's judgment): a random key lands on a random page of the index, so
 * every page of rows written rewrote hundreds of index pages (a 100,000-row
 * upload spent half its time reading and writing SQLite pages); ordered keys
 * append to the last one.
 */
export function orderedUuid(): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs += 1; // 4,096 ids in one ms: borrow the next ms, order is kept
  }
  // randomUUID draws from a cached entropy pool (randomBytes per id cost a third of planning's CPU);
  // its last two groups keep their random bits and the RFC variant.
  const time = lastMs.toString(16).padStart(12, "0");
  const seq = sequence.toString(16).padStart(3, "0");
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${seq}-${randomUUID().slice(19)}`;
}
