import type { NormalizedRow } from "@/lib/contract/normalizedRow";

/**
 * About how many bytes a normalised row takes once written (its text, in
 * UTF-16 code units, which is within a small factor of its UTF-8 size, plus a
 * little per value). Used to bound a write batch in bytes; walks the row once.
 * Values were depth-checked at validation (MAX_JSON_NESTING_DEPTH), so the
 * recursion is bounded.
 */
export function approximateRowBytes(row: NormalizedRow): number {
  return sizeOf(row);
}

function sizeOf(value: unknown): number {
  if (typeof value === "string") return value.length + 2;
  if (value === null || typeof value !== "object") return 8;
  let total = 2;
  if (Array.isArray(value)) {
    for (const item of value) total += sizeOf(item) + 1;
    return total;
  }
  for (const key in value) {
    if (Object.hasOwn(value, key)) total += key.length + 3 + sizeOf((value as Record<string, unknown>)[key]);
  }
  return total;
}
