#!/bin/sh
# A login role per service, named as its schema, owning that schema and everything in it, and nothing else: a
# service's DATABASE_URL names its role, so one service's credentials read no other's data (docs/decisions/0061).
# Run as the database's owner (PGHOST, PGUSER, PGPASSWORD, PGDATABASE) on every start of the compose cluster; run
# again, it changes nothing but the passwords, which it sets from POSTGRES_PASSWORD_<SERVICE>. Objects an older
# version created as the owner are handed to the schema's role.
set -eu
# The server reports ready on its socket while its first start's initialisation still runs (no TCP yet): wait
# for the address the roles are made over, as long as the services would.
tries=0
until pg_isready -q; do
  tries=$((tries + 1))
  [ "$tries" -lt 120 ] || { echo "PostgreSQL at $PGHOST never answered" >&2; exit 1; }
  sleep 1
done
role() { # role schema password
  psql -v ON_ERROR_STOP=1 -q -v role="$1" -v password="$2" <<'SQL'
SET client_min_messages TO warning;
SELECT format('CREATE ROLE %I LOGIN', :'role') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'role') \gexec
ALTER ROLE :"role" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'password';
GRANT CONNECT, TEMPORARY ON DATABASE :"DBNAME" TO :"role";
CREATE SCHEMA IF NOT EXISTS :"role" AUTHORIZATION :"role";
ALTER SCHEMA :"role" OWNER TO :"role";
SELECT format('ALTER %s %I.%I OWNER TO %I', CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END, n.nspname, c.relname, :'role')
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = :'role' AND c.relkind IN ('r', 'p', 'v', 'm', 'S') AND pg_get_userbyid(c.relowner) <> :'role'
    AND NOT (c.relkind = 'S' AND EXISTS (SELECT FROM pg_depend d WHERE d.objid = c.oid AND d.deptype IN ('a', 'i'))) \gexec
SELECT format('ALTER TYPE %I.%I OWNER TO %I', n.nspname, t.typname, :'role')
  FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
  WHERE n.nspname = :'role' AND t.typtype IN ('e', 'd', 'c') AND pg_get_userbyid(t.typowner) <> :'role'
    AND NOT EXISTS (SELECT FROM pg_class c WHERE c.reltype = t.oid) \gexec
SELECT format('ALTER FUNCTION %s OWNER TO %I', p.oid::regprocedure, :'role')
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
  WHERE n.nspname = :'role' AND pg_get_userbyid(p.proowner) <> :'role'
    AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e') \gexec
SQL
}
# Nobody but an owner creates anything in public, and no role connects unless granted.
psql -v ON_ERROR_STOP=1 -q <<'SQL'
SET client_min_messages TO warning;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
SELECT format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database()) \gexec
SQL
role identity "${POSTGRES_PASSWORD_GATEWAY:?}"
role body_metrics "${POSTGRES_PASSWORD_BODY_METRICS:?}"
role nutrition "${POSTGRES_PASSWORD_NUTRITION:?}"
# Nutrition's food search needs pg_trgm, which only a role with CREATE on the database may install: the owner puts
# it in nutrition's schema, and the migration's CREATE EXTENSION IF NOT EXISTS finds it there (docs/decisions/0063).
psql -v ON_ERROR_STOP=1 -q -c 'SET client_min_messages TO warning' -c 'CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA nutrition'
role workouts "${POSTGRES_PASSWORD_WORKOUTS:?}"
role coach "${POSTGRES_PASSWORD_COACH:?}"
role insights "${POSTGRES_PASSWORD_INSIGHTS:?}"
role imports "${POSTGRES_PASSWORD_IMPORTS:?}"
echo "database roles ready"
