/*
 * Scroll containment of the run views: the timeline and the inspector scroll on their own, so
 * reading a long prompt never scrolls the timeline away (they scrolled as one block before).
 */

/** The editor's run panel fills the bottom panel. */
export const RUN_PANEL_CLASS_NAME = "flex h-full min-h-0 flex-col";

/** Its body takes the remaining height. */
export const RUN_PANEL_BODY_CLASS_NAME = "min-h-0 flex-1";

/** Each column scrolls by itself. */
export const RUN_COLUMN_CLASS_NAME = "min-h-0 max-h-full overflow-y-auto";

/** A column of the run views (timeline, inspector) as a card: the run page's and the editor's run panel's. */
export const RUN_COLUMN_CARD_CLASS_NAME = "flex min-w-0 flex-col gap-4 p-3";

/** On the run page the columns are as tall as the window allows and scroll by themselves. */
export const RUN_PAGE_COLUMN_CLASS_NAME = "max-h-[calc(100vh-220px)] overflow-y-auto";
