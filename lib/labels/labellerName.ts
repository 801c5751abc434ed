/** What the row page shows as a label's labeller. */
export type LabellerOf = { labelledBy: string | null; source: string };

export const REMOVED_USER = "a removed user";

/**
 * The labeller's display name: their account's name, "Local admin" without
 * sign-in, "unknown" when no one was recorded. A label given on the row page
 * (source ui) holds the user's id: when that account is gone the label says
 * "a removed user", never the raw id. An imported label holds the importer's
 * email (sign-in on) or the file's own labelled_by (sign-in off), and an
 * upload's none: shown as they are.
 */
export function labellerName(entry: LabellerOf, names: ReadonlyMap<string, string>): string {
  const id = entry.labelledBy;
  if (id === null) return "unknown";
  if (id === "local") return "Local admin";
  return names.get(id) ?? (entry.source === "ui" ? REMOVED_USER : id);
}
