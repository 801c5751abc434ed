import { APIError } from "better-auth/api";
import type { Db } from "@/lib/db/client";
import { isLastActiveAdminRefusal } from "@/lib/db/accounts/activeAdmins";

export const LAST_ACTIVE_ADMIN_MESSAGE =
  "That would leave no active admin (an admin who is not banned). Make another user admin first.";

/**
 * The client Better Auth's adapter writes through: the same database, where
 * the User table's triggers refuse a change that leaves no active admin
 * (lib/db/accounts/activeAdmins.ts). Such a refusal becomes a 400 with a message that
 * says why, instead of a bare 500, on every admin endpoint (set-role,
 * update-user, ban-user, remove-user) and whatever else updates users.
 */
export function withLastAdminRefusals(db: Db) {
  return db.$extends({
    query: {
      user: {
        async $allOperations({ args, query }) {
          try {
            return await query(args);
          } catch (error) {
            if (isLastActiveAdminRefusal(error))
              throw new APIError("BAD_REQUEST", { message: LAST_ACTIVE_ADMIN_MESSAGE, code: "LAST_ACTIVE_ADMIN" });
            throw error;
          }
        },
      },
    },
  });
}
