"use client";

import { createContext, type ReactNode, useContext } from "react";

/** What the server this editor talks to can run, for warnings the compiler cannot give. */
export interface ServerCapabilities {
  /** A code sandbox service for Python is configured (TRELLIS_CODE_SANDBOX_URL). */
  pythonSandbox: boolean;
}

// Unknown (a canvas outside the editor page): assume it can, so nothing warns wrongly.
const ServerCapabilitiesContext = createContext<ServerCapabilities>({ pythonSandbox: true });

/** Gives the editor's panels what the server can run. */
export function ServerCapabilitiesProvider({ value, children }: { value: ServerCapabilities; children?: ReactNode }) {
  return <ServerCapabilitiesContext.Provider value={value}>{children}</ServerCapabilitiesContext.Provider>;
}

/** What the server can run. */
export function useServerCapabilities(): ServerCapabilities {
  return useContext(ServerCapabilitiesContext);
}
