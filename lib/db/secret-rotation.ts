import "server-only";
import { asRecord, toJson } from "./json";
import { database } from "./prisma-client";
import { decryptSecret, encryptSecret, isSealedWithCurrentKey } from "./secret-box";

/** What a rotation pass did, in rows of the Credential table. */
export interface RotationReport {
  /** Rows looked at (every credential: providers, HTTP credentials, tool-source secrets). */
  scanned: number;
  /** Rows re-sealed with the current key. */
  reencrypted: number;
  /** Rows already sealed with the current key (nothing written). */
  current: number;
  /** Rows no configured key opens: left as they are, listed by id, kind and name. */
  failed: { id: string; kind: string; name: string; reason: string }[];
}

/** Settings fields that hold sealed values (provider header values). */
const SEALED_SETTINGS_FIELDS = ["encryptedHeaders"] as const;

/**
 * Re-seals every stored secret with the current master key (TRELLIS_SECRET_KEY) in the current
 * format. Values sealed with a TRELLIS_SECRET_KEY_PREVIOUS key, or in the format before purpose
 * keys, are opened and sealed again; values already current are left alone, so the pass is
 * idempotent and safe to re-run (and to interrupt: each row is written on its own, and a row
 * written half-way is still either old or new, both of which open).
 *
 * Every encrypted column lives in `Credential`: `secret` (provider API keys, HTTP credential
 * secrets, tool-source and MCP secrets) and `settings.encryptedHeaders` (provider headers).
 */
export async function rotateCredentialSecrets(): Promise<RotationReport> {
  const db = database();
  const report: RotationReport = { scanned: 0, reencrypted: 0, current: 0, failed: [] };
  let cursor: string | undefined;
  for (;;) {
    const rows = await db.credential.findMany({
      orderBy: { id: "asc" },
      take: 200,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    });
    if (rows.length === 0) break;
    cursor = rows[rows.length - 1]?.id;
    for (const row of rows) {
      report.scanned += 1;
      try {
        const settings = { ...asRecord(row.settings) };
        let changed = false;
        let secret = row.secret;
        if (!isSealedWithCurrentKey(row.secret)) {
          secret = encryptSecret(decryptSecret(row.secret));
          changed = true;
        }
        for (const field of SEALED_SETTINGS_FIELDS) {
          const value = settings[field];
          if (typeof value === "string" && !isSealedWithCurrentKey(value)) {
            settings[field] = encryptSecret(decryptSecret(value));
            changed = true;
          }
        }
        if (!changed) {
          report.current += 1;
          continue;
        }
        // Conditional on the row being unchanged since it was read: a concurrent save wins.
        const { count } = await db.credential.updateMany({
          where: { id: row.id, secret: row.secret, updatedAt: row.updatedAt },
          data: { secret, settings: toJson(settings) },
        });
        if (count === 1) report.reencrypted += 1;
        else report.current += 1;
      } catch (error) {
        report.failed.push({
          id: row.id,
          kind: row.kind,
          name: row.name,
          reason: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }
  return report;
}
