import type { Database } from "../prisma-client";
import { sqliteConnectionOf } from "../prisma-client";

/**
 * Opens a Prisma interactive transaction on a SQLite client and holds it open until `release()`:
 * meanwhile the connection is inside a transaction, so the statements lib/db runs on it directly
 * take Prisma's path instead. For tests of both paths.
 */
export async function holdPrismaTransaction(db: Database): Promise<{ release(): Promise<void> }> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const holding = db.$transaction(async (transaction) => {
    await transaction.workspace.findFirst();
    entered();
    await gate;
  });
  await inside;
  if (!sqliteConnectionOf(db)?.inTransaction) throw new Error("the held transaction is not open on the connection");
  return {
    async release() {
      open();
      await holding;
    },
  };
}
