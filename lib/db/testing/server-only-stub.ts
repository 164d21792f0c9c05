// Stands in for the "server-only" marker package under Vitest, which runs outside React Server Components.
export {};
