/** How deep containers may nest: an iteration inside an iteration inside an iteration, no deeper. */
export const MAX_NESTING_DEPTH = 3;
