"use client";

import { useReactFlow } from "@xyflow/react";
import { useEffect } from "react";

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/** Zoom of the fit-view key: the same as the Controls button and the first load. */
const FIT_VIEW_OPTIONS = { padding: 0.2, maxZoom: 1, duration: 150 };

/**
 * Zoom keys: Ctrl/⌘ + `=`/`+` zooms in, Ctrl/⌘ + `-` zooms out (instead of the browser zooming
 * the page), Ctrl/⌘ + `0` and Shift + 1 fit the whole workflow. Ignored while typing.
 */
export function useZoomKeys(): void {
  const { zoomIn, zoomOut, fitView } = useReactFlow();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (isTyping(event.target)) return;
      const modifier = event.ctrlKey || event.metaKey;
      // Shift+1 is "!" on US layouts; `code` names the physical key on every layout.
      if (!modifier && event.shiftKey && (event.code === "Digit1" || event.key === "!")) {
        event.preventDefault();
        void fitView(FIT_VIEW_OPTIONS);
      } else if (modifier && (event.key === "=" || event.key === "+")) {
        event.preventDefault();
        void zoomIn({ duration: 150 });
      } else if (modifier && (event.key === "-" || event.key === "_")) {
        event.preventDefault();
        void zoomOut({ duration: 150 });
      } else if (modifier && event.key === "0") {
        event.preventDefault();
        void fitView(FIT_VIEW_OPTIONS);
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [zoomIn, zoomOut, fitView]);
}
