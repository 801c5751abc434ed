/**
 * Who a run or dataset shows as its creator: the user's name with their email, "local" for what was made
 * without an account (while sign-in was off, or by the CLI on the server's own store), whether or not
 * sign-in is on now, and "a removed user" when the account is gone.
 */
export function creatorLabel(createdById: string | null, namesById: ReadonlyMap<string, string>): string {
  if (createdById === null) return "local";
  return namesById.get(createdById) ?? "a removed user";
}
