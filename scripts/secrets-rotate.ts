/**
 * `npm run secrets:rotate`: re-encrypts every stored credential (model providers, HTTP
 * credentials, tool-source and MCP secrets) with the current TRELLIS_SECRET_KEY.
 *
 * Rotation: set TRELLIS_SECRET_KEY to the new key and TRELLIS_SECRET_KEY_PREVIOUS to the old one
 * (comma-separated if several), restart, run this, then remove TRELLIS_SECRET_KEY_PREVIOUS.
 * Idempotent: rows already sealed with the current key are not written again. Exits 1 when some
 * row could not be opened with any configured key (those rows are listed and left unchanged).
 */
import { ConfigurationError } from "../lib/db/database-config";
import { database } from "../lib/db/prisma-client";
import { rotateCredentialSecrets } from "../lib/db/secret-rotation";
import { checkServerEnvironment } from "../lib/services/environment";

async function main(): Promise<number> {
  try {
    checkServerEnvironment(process.env);
  } catch (error) {
    console.error(`secrets:rotate: ${error instanceof ConfigurationError ? error.message : String(error)}`);
    return 1;
  }
  const report = await rotateCredentialSecrets();
  console.log(
    `secrets:rotate: ${report.scanned} credentials scanned, ${report.reencrypted} re-encrypted, ` +
      `${report.current} already current, ${report.failed.length} failed.`,
  );
  for (const failure of report.failed) {
    console.error(`  could not open ${failure.kind} "${failure.name}" (${failure.id}): ${failure.reason}`);
  }
  await database().$disconnect();
  return report.failed.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`secrets:rotate failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
