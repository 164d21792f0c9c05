"use client";

import { XIcon } from "lucide-react";
import { type KeyboardEvent, type PointerEvent, type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";

const STORAGE_KEY = "trellis.bottom-panel-height";
const DEFAULT_HEIGHT = 280;
const MIN_HEIGHT = 120;
/** The panel never takes more than this share of the editor's height: the canvas stays usable. */
const MAX_SHARE = 0.7;
const KEY_STEP = 24;
const PAGE_STEP = 96;

function readStoredHeight(): number {
  if (typeof window === "undefined") return DEFAULT_HEIGHT;
  const stored = Number(window.localStorage.getItem(STORAGE_KEY));
  return Number.isFinite(stored) && stored >= MIN_HEIGHT ? stored : DEFAULT_HEIGHT;
}

/**
 * The editor's bottom panel (run panel, problems): resizable from its top edge with the pointer
 * or the keyboard (a focusable `separator`: arrows, Page Up/Down, Home/End), its height kept in
 * localStorage. The content scrolls in `bottom-panel-body`; the run panel inside fills it exactly
 * and scrolls its timeline and inspector columns by themselves (panels/run-panel.tsx).
 */
export function BottomPanel({ panel, onClose, children }: { panel: string; onClose: () => void; children: ReactNode }) {
  const [height, setHeight] = useState(DEFAULT_HEIGHT);
  const section = useRef<HTMLElement>(null);
  const drag = useRef<{ startY: number; startHeight: number } | null>(null);
  useEffect(() => setHeight(readStoredHeight()), []);

  const maxHeight = useCallback(() => {
    const editor = section.current?.parentElement;
    return Math.max(MIN_HEIGHT, Math.round((editor?.clientHeight ?? 800) * MAX_SHARE));
  }, []);
  const apply = useCallback(
    (next: number) => {
      const clamped = Math.round(Math.min(maxHeight(), Math.max(MIN_HEIGHT, next)));
      setHeight(clamped);
      window.localStorage.setItem(STORAGE_KEY, String(clamped));
    },
    [maxHeight],
  );

  const onKeyDown = (event: KeyboardEvent) => {
    const steps: Record<string, number> = {
      ArrowUp: KEY_STEP,
      ArrowDown: -KEY_STEP,
      PageUp: PAGE_STEP,
      PageDown: -PAGE_STEP,
    };
    if (event.key in steps) apply(height + steps[event.key]);
    else if (event.key === "Home") apply(MIN_HEIGHT);
    else if (event.key === "End") apply(maxHeight());
    else return;
    event.preventDefault();
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startY: event.clientY, startHeight: height };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current) apply(drag.current.startHeight + drag.current.startY - event.clientY);
  };
  const onPointerUp = () => {
    drag.current = null;
  };

  return (
    <section
      ref={section}
      className="relative flex shrink-0 flex-col border-t border-border bg-card"
      style={{ height }}
      data-testid={`bottom-panel-${panel}`}
      aria-label={panel === "run" ? "Run panel" : panel === "variables" ? "Variables" : "Problems"}
    >
      {/* biome-ignore lint/a11y/useSemanticElements: an <hr> cannot be focused or dragged; this is the WAI-ARIA window splitter */}
      <div
        role="separator"
        aria-orientation="horizontal"
        aria-label="Resize the bottom panel"
        aria-valuenow={height}
        aria-valuemin={MIN_HEIGHT}
        aria-valuemax={maxHeight()}
        tabIndex={0}
        data-testid="bottom-panel-resizer"
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        className="absolute inset-x-0 -top-1.5 z-10 h-3 cursor-row-resize touch-none outline-none after:absolute after:inset-x-0 after:top-1/2 after:h-0.5 after:-translate-y-1/2 after:bg-transparent after:transition-colors hover:after:bg-primary/40 focus-visible:after:bg-primary"
      />
      <Button
        variant="ghost"
        size="icon-sm"
        className="absolute top-1.5 right-2 z-10"
        aria-label="Close panel"
        onClick={onClose}
      >
        <XIcon />
      </Button>
      <div data-slot="bottom-panel-body" className="min-h-0 flex-1 overflow-auto px-3 pt-2 pb-2">
        {children}
      </div>
    </section>
  );
}
