-- Every change that can end or alter a signed-in session tells the process's session cache
-- (domain/session-cache.ts, docs/server.md « Cache des sessions »): a session updated or deleted
-- (logout, expiry, the minute's touch, an installation's sessions revoked), an installation
-- changed or deleted (suspension, client id, zone…), a configuration written (its version keys
-- the configuration cache). The payload is the installation's id. NOTIFY is delivered at commit;
-- on the embedded database the one process hears it before the writing statement returns. On
-- PostgreSQL nobody listens on this channel (the cache is off there: several processes).

CREATE FUNCTION session_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  before_change uuid;
  after_change uuid;
BEGIN
  IF TG_TABLE_NAME = 'installations' THEN
    before_change := OLD.id;
    IF TG_OP = 'UPDATE' THEN after_change := NEW.id; END IF;
  ELSE
    IF TG_OP <> 'INSERT' THEN before_change := OLD.installation_id; END IF;
    IF TG_OP <> 'DELETE' THEN after_change := NEW.installation_id; END IF;
  END IF;
  -- A row moved to another installation changes both (a NOTIFY repeated in one transaction is
  -- delivered once).
  IF before_change IS NOT NULL THEN PERFORM pg_notify('synchro_session_cache', before_change::text); END IF;
  IF after_change IS NOT NULL THEN PERFORM pg_notify('synchro_session_cache', after_change::text); END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER sessions_session_cache AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION session_cache_notify();
CREATE TRIGGER installations_session_cache AFTER UPDATE OR DELETE ON installations
  FOR EACH ROW EXECUTE FUNCTION session_cache_notify();
CREATE TRIGGER configurations_session_cache AFTER INSERT OR UPDATE OR DELETE ON configurations
  FOR EACH ROW EXECUTE FUNCTION session_cache_notify();
