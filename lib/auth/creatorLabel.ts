/**
 * Who a run or dataset shows as its creator: the user's name, "local" for
 * what was made while sign-in was off (every request was the local admin),
 * "—" when it is unknown (made before sign-in was on, or the user is gone).
 */
export function creatorLabel(
  createdById: string | null,
  namesById: ReadonlyMap<string, string>,
  signInOn: boolean,
): string {
  if (createdById === null) return signInOn ? "—" : "local";
  return namesById.get(createdById) ?? "—";
}
