"use client";

import { useCallback, useSyncExternalStore } from "react";
import type { EditorStore } from "./editor-store";
import { useEditorStoreApi } from "./editor-store-context";
import type { CanvasIssue, EditorState, NodeRunState } from "./types";

/** A per-node map held in the store (compile issues, live run states). */
type NodeMapKey = "issuesByNode" | "nodeRunStates";

/**
 * Listeners keyed by node id for one per-node map. A plain `useEditorStore` selector in every
 * node would put ~1,000 listeners (issues and run badge of 500 nodes) on the store, and zustand
 * calls every listener on every `set`, including each drag frame. Here the store has one
 * listener per map, which compares a single reference and, only when the map changed, wakes the
 * nodes whose entry changed.
 */
class NodeMapSubscriptions {
  private readonly listeners = new Map<string, Set<() => void>>();

  constructor(
    private readonly store: EditorStore,
    private readonly key: NodeMapKey,
  ) {
    store.subscribe((state, previous) => {
      const next = state[key] as Record<string, unknown>;
      const before = previous[key] as Record<string, unknown>;
      if (next === before) return;
      for (const [nodeId, listeners] of this.listeners) {
        if (next[nodeId] === before[nodeId]) continue;
        for (const listener of listeners) listener();
      }
    });
  }

  subscribe(nodeId: string, listener: () => void): () => void {
    let listeners = this.listeners.get(nodeId);
    if (!listeners) {
      listeners = new Set();
      this.listeners.set(nodeId, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.listeners.delete(nodeId);
    };
  }

  read(nodeId: string): unknown {
    return (this.store.getState()[this.key] as Record<string, unknown>)[nodeId];
  }
}

const subscriptionsByStore = new WeakMap<EditorStore, Partial<Record<NodeMapKey, NodeMapSubscriptions>>>();

function subscriptionsOf(store: EditorStore, key: NodeMapKey): NodeMapSubscriptions {
  let byKey = subscriptionsByStore.get(store);
  if (!byKey) {
    byKey = {};
    subscriptionsByStore.set(store, byKey);
  }
  byKey[key] ??= new NodeMapSubscriptions(store, key);
  return byKey[key];
}

function useNodeEntry<Value>(key: NodeMapKey, nodeId: string): Value | undefined {
  const subscriptions = subscriptionsOf(useEditorStoreApi(), key);
  const subscribe = useCallback(
    (listener: () => void) => subscriptions.subscribe(nodeId, listener),
    [subscriptions, nodeId],
  );
  const read = () => subscriptions.read(nodeId) as Value | undefined;
  return useSyncExternalStore(subscribe, read, read);
}

/** Compile issues of one node; re-renders only when that node's issues change. */
export function useNodeIssues(nodeId: string): CanvasIssue[] | undefined {
  return useNodeEntry<EditorState["issuesByNode"][string]>("issuesByNode", nodeId);
}

/** Live run state of one node; re-renders only when that node's state changes. */
export function useNodeRunState(nodeId: string): NodeRunState | undefined {
  return useNodeEntry<NodeRunState>("nodeRunStates", nodeId);
}
