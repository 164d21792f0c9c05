// Compliant: test support needs no server-only guard.
export const localServer = "http://127.0.0.1:0";
