// Breaks app-not-db (an `@/` alias import), prisma-only-in-db and telemetry-only-in-observability.
import { PrismaClient } from "@prisma/client";
import { Counter } from "prom-client";
import { database } from "@/lib/db/prisma-client";

export const GET = () => ({ database, PrismaClient, Counter });
