-- PostgreSQL only: the Prisma schema has no triggers (on SQLite, data_version does this job).
-- Every change to what the API caches about accounts (key, plan, whitelist) notifies the listening API
-- processes, which drop their account cache: a rolled key or an edited whitelist applies on the next request.
CREATE FUNCTION sharecount_accounts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sharecount_accounts', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;

CREATE TRIGGER account_changed AFTER DELETE OR UPDATE OF api_key_hash, plan_name, whitelist_enabled ON "account"
  FOR EACH STATEMENT EXECUTE FUNCTION sharecount_accounts_changed();
CREATE TRIGGER plan_changed AFTER INSERT OR UPDATE OR DELETE ON "plan"
  FOR EACH STATEMENT EXECUTE FUNCTION sharecount_accounts_changed();
CREATE TRIGGER whitelist_domain_changed AFTER INSERT OR UPDATE OR DELETE ON "whitelist_domain"
  FOR EACH STATEMENT EXECUTE FUNCTION sharecount_accounts_changed();
