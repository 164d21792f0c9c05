/// <reference lib="webworker" />
import ELK from "elkjs/lib/elk.bundled.js";
import { type LayoutScope, layoutScopes } from "./layout-scopes";

// Layout of hundreds of nodes takes long enough to drop frames, so it runs off the main thread.
const elk = new ELK();

self.onmessage = async (event: MessageEvent<{ requestId: number; scopes: LayoutScope[] }>) => {
  const { requestId, scopes } = event.data;
  try {
    const result = await layoutScopes(elk, scopes);
    self.postMessage({ requestId, result });
  } catch (error) {
    self.postMessage({ requestId, error: String(error) });
  }
};
