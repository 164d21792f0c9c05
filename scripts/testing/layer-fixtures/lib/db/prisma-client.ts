// Compliant: lib/db may import Prisma.
import "server-only";
import { PrismaClient } from "@prisma/client";

export const database = PrismaClient;
