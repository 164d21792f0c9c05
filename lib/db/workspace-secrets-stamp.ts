import "server-only";
import { database, providerOf } from "./prisma-client";
import { dialectFor } from "./sql-dialect";
import { queryRow } from "./sql-steps";

/** What a workspace's secret-bearing rows look like now, in one query (see {@link workspaceSecretsStamp}). */
export interface WorkspaceSecretsStamp {
  /** Changes whenever a credential, tool source or workspace variable of the workspace is added, edited or removed. */
  key: string;
  /** The newest `updatedAt` among those rows (epoch ms), 0 when there are none. */
  newestChangeAt: number;
}

type StampRow = Record<"credentials" | "toolSources" | "variables", unknown> &
  Record<"credentialsAt" | "toolSourcesAt" | "variablesAt", unknown>;

/** A count or `MAX(updatedAt)` as the dialect returns it (bigint, number, ISO text, Date or null) → epoch ms / text. */
function epochMs(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (value instanceof Date) return value.getTime();
  if (typeof value === "number" || typeof value === "bigint") return Number(value);
  const parsed = Date.parse(String(value));
  return Number.isNaN(parsed) ? 0 : parsed;
}

/**
 * The row counts and newest `updatedAt` of the workspace's credentials (providers, HTTP and MCP
 * credentials), tool sources and variables: every table a run's secrets and `{{env.*}}` come
 * from. Every write to them goes through Prisma, which sets `updatedAt`; a removal changes the
 * count. One indexed query (on SQLite run on Prisma's connection directly), instead of reading
 * and decrypting every secret per run.
 */
export async function workspaceSecretsStamp(workspaceId: string): Promise<WorkspaceSecretsStamp> {
  const db = database();
  const at = dialectFor(providerOf(db)).value;
  const row = (await queryRow(
    db,
    `SELECT
      (SELECT COUNT(*) FROM "Credential" WHERE "workspaceId" = ${at(1)}) AS "credentials",
      (SELECT MAX("updatedAt") FROM "Credential" WHERE "workspaceId" = ${at(2)}) AS "credentialsAt",
      (SELECT COUNT(*) FROM "ToolSource" WHERE "workspaceId" = ${at(3)}) AS "toolSources",
      (SELECT MAX("updatedAt") FROM "ToolSource" WHERE "workspaceId" = ${at(4)}) AS "toolSourcesAt",
      (SELECT COUNT(*) FROM "WorkspaceVariable" WHERE "workspaceId" = ${at(5)}) AS "variables",
      (SELECT MAX("updatedAt") FROM "WorkspaceVariable" WHERE "workspaceId" = ${at(6)}) AS "variablesAt"`,
    Array(6).fill(workspaceId),
  )) as StampRow | undefined;
  const times = [epochMs(row?.credentialsAt), epochMs(row?.toolSourcesAt), epochMs(row?.variablesAt)];
  const counts = [row?.credentials, row?.toolSources, row?.variables].map((count) => String(count ?? 0));
  return { key: [...counts, ...times].join(":"), newestChangeAt: Math.max(...times) };
}
