/** "840 ms" or "2.4 s". */
export function formatDuration(milliseconds: number | null | undefined): string {
  if (milliseconds === null || milliseconds === undefined || Number.isNaN(milliseconds)) return "—";
  return milliseconds < 1000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1000).toFixed(1)} s`;
}

/** "$0.0012" with enough digits to see small costs. */
export function formatCost(cost: number | null | undefined): string {
  if (!cost) return "$0";
  return cost < 0.01 ? `$${cost.toFixed(5)}` : `$${cost.toFixed(2)}`;
}

/** A relative time such as "3 min ago", falling back to the date. */
export function formatRelativeTime(value: string | number | Date): string {
  const date = new Date(value);
  const seconds = Math.round((Date.now() - date.getTime()) / 1000);
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return date.toLocaleDateString();
}
