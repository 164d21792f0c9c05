"use client";

import { type FitViewOptions, useReactFlow } from "@xyflow/react";
import { type RefObject, useCallback, useEffect, useMemo, useRef } from "react";

/** Fit options of the editor: never zoom past 100 %, a fixed 32 px margin (readable titles at 1440 px). */
export const FIT_VIEW_OPTIONS: FitViewOptions = { maxZoom: 1, padding: "32px" };

/** What {@link useKeepFitted} gives the canvas and the editor shell. */
export interface KeepFitted {
  /** Fits the view now (animated) and marks it fitted. */
  fit(): void;
  /** Marks the view fitted (after a fit the component did not start, e.g. the Controls button). */
  markFitted(): void;
  /** React Flow's `onMoveStart`: a move the user started (it has an event) ends the fitted state. */
  onMoveStart(event: MouseEvent | TouchEvent | null): void;
}

/**
 * Keeps the view fitted while nobody has moved it: when the canvas changes size (a panel opens,
 * closes or collapses) and the view was fitted, it is fitted again; once the user pans or zooms,
 * panel changes leave the view alone until the next fit (the Controls button, auto-layout).
 */
export function useKeepFitted(container: RefObject<HTMLElement | null>): KeepFitted {
  const { fitView } = useReactFlow();
  // React Flow's `fitView` prop fits the first render.
  const fitted = useRef(true);

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
    const observer = new ResizeObserver(() => {
      const size = { width: element.clientWidth, height: element.clientHeight };
      if (size.width === last.width && size.height === last.height) return;
      last = size;
      if (!fitted.current || size.width === 0 || size.height === 0) return;
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => void fitView(FIT_VIEW_OPTIONS));
    });
    observer.observe(element);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
    };
  }, [container, fitView]);

  return useMemo(
    () => ({
      fit,
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
