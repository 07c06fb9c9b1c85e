-- Every change that can end or alter a signed-in session tells the process's session cache
-- (domain/session-cache.ts, docs/server.md « Cache des sessions »): a session updated or deleted
-- (logout, expiry, the minute's touch, an installation's sessions revoked), an installation
-- changed or deleted (suspension, client id, zone…), a configuration written (its version keys
-- the configuration cache). The payload is the installation's id. NOTIFY is delivered at commit;
-- on the embedded database the one process hears it before the writing statement returns. On
-- PostgreSQL nobody listens on this channel (the cache is off there: several processes).

CREATE FUNCTION session_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed uuid;
BEGIN
  IF TG_TABLE_NAME = 'installations' THEN
    changed := OLD.id;
  ELSIF TG_OP = 'INSERT' THEN
    changed := NEW.installation_id;
  ELSE
    changed := OLD.installation_id;
  END IF;
  PERFORM pg_notify('synchro_session_cache', changed::text);
  RETURN NULL;
END $$;

CREATE TRIGGER sessions_session_cache AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION session_cache_notify();
CREATE TRIGGER installations_session_cache AFTER UPDATE OR DELETE ON installations
  FOR EACH ROW EXECUTE FUNCTION session_cache_notify();
CREATE TRIGGER configurations_session_cache AFTER INSERT OR UPDATE OR DELETE ON configurations
  FOR EACH ROW EXECUTE FUNCTION session_cache_notify();
