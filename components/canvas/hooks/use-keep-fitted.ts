"use client";

import { type FitViewOptions, useReactFlow } from "@xyflow/react";
import { type RefObject, useCallback, useEffect, useMemo, useRef } from "react";

/** Fit options of the editor: never zoom past 100 %, a fixed 32 px margin (readable titles at 1440 px). */
export const FIT_VIEW_OPTIONS: FitViewOptions = { maxZoom: 1, padding: "32px" };

/** How long a requested re-fit waits for the canvas to change size before it is dropped. */
const REFIT_WINDOW_MS = 400;

/** What {@link useKeepFitted} gives the canvas and the editor shell. */
export interface KeepFitted {
  /** Fits the view now (animated) and marks it fitted: auto-layout. */
  fit(): void;
  /**
   * A panel that changes the canvas size is opening, closing or collapsing (palette, bottom
   * panel): when the view is fitted, fit it again once the canvas has its new size.
   */
  refit(): void;
  /** Marks the view fitted (after a fit the component did not start, e.g. the Controls button). */
  markFitted(): void;
  /** React Flow's `onMoveStart`: a move the user started (it has an event) ends the fitted state. */
  onMoveStart(event: MouseEvent | TouchEvent | null): void;
}

/**
 * Keeps the view fitted while nobody has moved it: the palette and the bottom panel re-fit it
 * when they change the canvas size, and so does a window resize; once the user pans or zooms,
 * they leave the view alone until the next fit. Selecting a node opens the config panel without
 * a re-fit on purpose: the node under the pointer must not jump (a click often starts a drag).
 */
export function useKeepFitted(container: RefObject<HTMLElement | null>): KeepFitted {
  const { fitView } = useReactFlow();
  // React Flow's `fitView` prop fits the first render.
  const fitted = useRef(true);
  const pendingUntil = useRef(0);

  const fit = useCallback(() => {
    fitted.current = true;
    // A frame later: nodes added or moved in this tick are measured by then.
    requestAnimationFrame(() => void fitView({ ...FIT_VIEW_OPTIONS, duration: 200 }));
  }, [fitView]);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let last = { width: element.clientWidth, height: element.clientHeight };
    let frame = 0;
    const refitSoon = () => {
      cancelAnimationFrame(frame);
      // React Flow's own resize observer updates its size first; fit on the next frame.
      frame = requestAnimationFrame(() => void fitView(FIT_VIEW_OPTIONS));
    };
    const observer = new ResizeObserver(() => {
      const size = { width: element.clientWidth, height: element.clientHeight };
      if (size.width === last.width && size.height === last.height) return;
      last = size;
      if (!fitted.current || size.width === 0 || size.height === 0) return;
      if (performance.now() > pendingUntil.current) return;
      pendingUntil.current = 0;
      refitSoon();
    });
    const onWindowResize = () => {
      if (fitted.current) pendingUntil.current = performance.now() + REFIT_WINDOW_MS;
    };
    observer.observe(element);
    window.addEventListener("resize", onWindowResize);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      window.removeEventListener("resize", onWindowResize);
    };
  }, [container, fitView]);

  return useMemo(
    () => ({
      fit,
      refit: () => {
        if (fitted.current) pendingUntil.current = performance.now() + REFIT_WINDOW_MS;
      },
      markFitted: () => {
        fitted.current = true;
      },
      onMoveStart: (event: MouseEvent | TouchEvent | null) => {
        if (event) fitted.current = false;
      },
    }),
    [fit],
  );
}
