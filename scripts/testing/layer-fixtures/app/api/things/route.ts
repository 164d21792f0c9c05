// Breaks app-not-db (an `@/` alias import) and prisma-only-in-db.
import { PrismaClient } from "@prisma/client";
import { database } from "@/lib/db/prisma-client";

export const GET = () => ({ database, PrismaClient });
