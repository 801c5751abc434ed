-- CreateTable
CREATE TABLE "SignInThrottle" (
    "email" TEXT NOT NULL PRIMARY KEY,
    "windowStart" DATETIME NOT NULL,
    "failures" INTEGER NOT NULL
);

-- Keep an active admin (role admin, not banned): refuse, inside the write
-- itself, any update or delete of the User table that would leave none. SQLite
-- serialises writes, so two concurrent demotions cannot both pass. The message
-- starts with ASSAY_LAST_ACTIVE_ADMIN, which lib/db/activeAdmins.ts recognises.
CREATE TRIGGER "User_keeps_an_active_admin_on_update"
BEFORE UPDATE OF "role", "banned" ON "User"
WHEN (',' || REPLACE(COALESCE(OLD."role", ''), ' ', '') || ',') LIKE '%,admin,%'
  AND COALESCE(OLD."banned", 0) = 0
  AND NOT ((',' || REPLACE(COALESCE(NEW."role", ''), ' ', '') || ',') LIKE '%,admin,%' AND COALESCE(NEW."banned", 0) = 0)
  AND NOT EXISTS (
    SELECT 1 FROM "User" AS other
    WHERE other."id" <> OLD."id"
      AND (',' || REPLACE(COALESCE(other."role", ''), ' ', '') || ',') LIKE '%,admin,%'
      AND COALESCE(other."banned", 0) = 0
  )
BEGIN
  SELECT RAISE(ABORT, 'ASSAY_LAST_ACTIVE_ADMIN: this change would leave no active admin');
END;

CREATE TRIGGER "User_keeps_an_active_admin_on_delete"
BEFORE DELETE ON "User"
WHEN (',' || REPLACE(COALESCE(OLD."role", ''), ' ', '') || ',') LIKE '%,admin,%'
  AND COALESCE(OLD."banned", 0) = 0
  AND NOT EXISTS (
    SELECT 1 FROM "User" AS other
    WHERE other."id" <> OLD."id"
      AND (',' || REPLACE(COALESCE(other."role", ''), ' ', '') || ',') LIKE '%,admin,%'
      AND COALESCE(other."banned", 0) = 0
  )
BEGIN
  SELECT RAISE(ABORT, 'ASSAY_LAST_ACTIVE_ADMIN: this change would leave no active admin');
END;
