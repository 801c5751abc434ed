/** What the row page shows as a label's labeller. */
export type LabellerOf = { labelledBy: string | null; source: string; statedBy: string | null };

export const REMOVED_USER = "a removed user";

/**
 * The labeller's display name: their account's name, "Local admin" without
 * sign-in, "unknown" when no one was recorded. A label given on the row page
 * (source ui), or imported by a signed-in person (statedBy set), holds a user
 * id: when that account is gone the label says "a removed user", never the raw
 * id. A file imported with sign-in off holds the file's own labelled_by text,
 * shown as it is.
 */
export function labellerName(entry: LabellerOf, names: ReadonlyMap<string, string>): string {
  const id = entry.labelledBy;
  if (id === null) return "unknown";
  if (id === "local") return "Local admin";
  const name = names.get(id);
  if (name !== undefined) return name;
  const heldUserId = entry.source === "ui" || entry.statedBy !== null;
  return heldUserId ? REMOVED_USER : id;
}
