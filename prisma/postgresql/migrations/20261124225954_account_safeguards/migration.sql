-- The SQLite history's account safeguards, for PostgreSQL: refuse any update
-- or delete of "User" that would leave no active admin (role admin, not
-- banned). The message starts with ASSAY_LAST_ACTIVE_ADMIN, which
-- lib/db/accounts/activeAdmins.ts recognises. PostgreSQL does not serialise
-- writers as SQLite does, so the check first takes a transaction-level
-- advisory lock: a second concurrent demotion waits for the first to commit,
-- then (under READ COMMITTED each plpgsql query takes a fresh snapshot) sees it.
CREATE FUNCTION "assay_is_active_admin"(role TEXT, banned BOOLEAN) RETURNS BOOLEAN
LANGUAGE sql IMMUTABLE AS $$
  SELECT (',' || REPLACE(COALESCE(role, ''), ' ', '') || ',') LIKE '%,admin,%' AND NOT COALESCE(banned, false)
$$;

CREATE FUNCTION "User_keeps_an_active_admin"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF "assay_is_active_admin"(OLD."role", OLD."banned")
     AND (TG_OP = 'DELETE' OR NOT "assay_is_active_admin"(NEW."role", NEW."banned")) THEN
    PERFORM pg_advisory_xact_lock(hashtext('assay_active_admin'));
    IF NOT EXISTS (SELECT 1 FROM "User" other WHERE other."id" <> OLD."id"
                   AND "assay_is_active_admin"(other."role", other."banned")) THEN
      RAISE EXCEPTION 'ASSAY_LAST_ACTIVE_ADMIN: this change would leave no active admin';
    END IF;
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "User_keeps_an_active_admin_on_update"
BEFORE UPDATE OF "role", "banned" ON "User"
FOR EACH ROW EXECUTE FUNCTION "User_keeps_an_active_admin"();

CREATE TRIGGER "User_keeps_an_active_admin_on_delete"
BEFORE DELETE ON "User"
FOR EACH ROW EXECUTE FUNCTION "User_keeps_an_active_admin"();
