-- Search rows in start order (see lib/db/run-search.ts): the FTS5 rowid becomes the run's start
-- time in milliseconds times 1048576 plus a count of the runs that started in the same
-- millisecond, so a search page reads FTS5 in rowid order and stops at its LIMIT.
CREATE VIRTUAL TABLE "RunSearch_keyed" USING fts5("runId" UNINDEXED, "workspaceId" UNINDEXED, "content", tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO "RunSearch_keyed" (rowid, "runId", "workspaceId", "content")
SELECT "startedMs" * 1048576 + row_number() OVER (PARTITION BY "startedMs" ORDER BY "runId") - 1, "runId", "workspaceId", "content"
FROM (
  SELECT s."runId" AS "runId", s."workspaceId" AS "workspaceId", s."content" AS "content",
    CAST(round((julianday(r."startedAt") - 2440587.5) * 86400000) AS INTEGER) AS "startedMs"
  FROM "RunSearch" s JOIN "Run" r ON r."id" = s."runId"
);
DROP TABLE "RunSearch";
ALTER TABLE "RunSearch_keyed" RENAME TO "RunSearch";
