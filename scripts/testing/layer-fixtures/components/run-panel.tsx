// Breaks components-only-isomorphic twice (an `@/` alias value import, a relative type-only import)
// and components-no-server-packages (next/headers).
import { headers } from "next/headers";
import type { RunEvent } from "../lib/engine/run-events";
import { database } from "@/lib/db/prisma-client";
// Allowed: the isomorphic workflow package.
import { parseDocument } from "@/lib/workflow/document";

export const panel = { headers, database, parseDocument, event: undefined as RunEvent | undefined };
