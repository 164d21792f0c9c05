// Compliant: route tests may seed fixtures through lib/db.
import { database } from "../../../lib/db/prisma-client";

export const fixture = database;
