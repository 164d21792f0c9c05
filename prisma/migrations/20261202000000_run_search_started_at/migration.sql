-- PostgreSQL only: its search rows get the run's start (lib/db/run-search.ts). SQLite's search rows
-- are already keyed by it (the FTS5 rowid is the start millisecond times 1048576 plus n), so
-- nothing changes here. The folder exists so both providers keep the same migration list.
SELECT 1;
