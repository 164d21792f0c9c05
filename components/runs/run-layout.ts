import type { CSSProperties } from "react";

/*
 * Scroll containment of the run views: the timeline and the inspector scroll on their own, so
 * reading a long prompt never scrolls the timeline away (they scrolled as one block before).
 * Kept here until the design system's tokens land; then these become utility classes.
 */

/** The editor's run panel fills the bottom panel. */
export const RUN_PANEL_STYLE: CSSProperties = { display: "flex", flexDirection: "column", height: "100%" };

/** Its body takes the remaining height. */
export const RUN_PANEL_BODY_STYLE: CSSProperties = { flex: "1 1 0", minHeight: 0 };

/** Each column scrolls by itself. */
export const RUN_COLUMN_STYLE: CSSProperties = { overflowY: "auto", minHeight: 0, maxHeight: "100%" };

/** On the run page the columns are as tall as the window allows and scroll by themselves. */
export const RUN_PAGE_COLUMN_STYLE: CSSProperties = { overflowY: "auto", maxHeight: "calc(100vh - 220px)" };
