/**
 * Runs `run` and reports the CPU time it used. Performance tests assert on CPU time rather than
 * wall time: the test machine is shared, and a loaded neighbour must not fail a test about this
 * code's own cost. Node-only (tests), never imported by the package itself.
 */
export function measureCpu<Result>(run: () => Result): { result: Result; cpuMilliseconds: number } {
  const before = process.cpuUsage();
  const result = run();
  const used = process.cpuUsage(before);
  return { result, cpuMilliseconds: (used.user + used.system) / 1000 };
}
