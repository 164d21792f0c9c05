// Breaks production-not-test-support and resolvable.
import "server-only";
import { localServer } from "./test-support/local-server";
import { missing } from "./no-such-module";

export const registry = { localServer, missing };
