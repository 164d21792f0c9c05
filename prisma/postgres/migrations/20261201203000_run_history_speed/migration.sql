-- The SQLite migration of this name re-keys the FTS5 search rows in start order.
-- PostgreSQL keeps its search table as it is (lib/db/run-search.ts walks the Run indexes in page
-- order and reads the GIN index when the terms are rare), so nothing changes here.
SELECT 1;
