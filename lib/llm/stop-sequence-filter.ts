import "server-only";
/**
 * Client-side stop sequences. Some OpenAI-compatible servers ignore `stop`, some echo the stop
 * text, reasoning models reject the field, and OpenAI takes at most four; applying the cut here
 * too makes `stop` mean the same on every provider (ReAct depends on it).
 */

/** Index of the earliest stop sequence in `text`, or -1. */
export function findStopSequence(text: string, stops: readonly string[]): number {
  let earliest = -1;
  for (const stop of stops) {
    if (stop.length === 0) continue;
    const index = text.indexOf(stop);
    if (index !== -1 && (earliest === -1 || index < earliest)) earliest = index;
  }
  return earliest;
}

/** `text` cut before the earliest stop sequence; `stopped` says whether one was found. */
export function cutAtStopSequence(text: string, stops: readonly string[]): { text: string; stopped: boolean } {
  const index = findStopSequence(text, stops);
  return index === -1 ? { text, stopped: false } : { text: text.slice(0, index), stopped: true };
}

/**
 * Streaming version: holds back a tail that could still become a stop sequence, so no part of
 * a stop sequence is ever emitted, and reports when one completes.
 */
export class StopSequenceFilter {
  private pending = "";
  private stopped = false;
  private readonly stops: readonly string[];

  constructor(stops: readonly string[]) {
    this.stops = stops.filter((stop) => stop.length > 0);
  }

  /** Feeds one delta; returns the text that is safe to emit and whether a stop sequence completed. */
  push(delta: string): { text: string; stopped: boolean } {
    if (this.stopped) return { text: "", stopped: true };
    if (this.stops.length === 0) return { text: delta, stopped: false };
    const buffer = this.pending + delta;
    const index = findStopSequence(buffer, this.stops);
    if (index !== -1) {
      this.stopped = true;
      this.pending = "";
      return { text: buffer.slice(0, index), stopped: true };
    }
    const held = this.heldTailLength(buffer);
    this.pending = buffer.slice(buffer.length - held);
    return { text: buffer.slice(0, buffer.length - held), stopped: false };
  }

  /** Releases the held-back tail at the end of the stream (it never became a stop sequence). */
  flush(): string {
    const rest = this.stopped ? "" : this.pending;
    this.pending = "";
    return rest;
  }

  /** Length of the longest suffix of `buffer` that is a proper prefix of a stop sequence. */
  private heldTailLength(buffer: string): number {
    let longest = 0;
    for (const stop of this.stops) {
      const limit = Math.min(stop.length - 1, buffer.length);
      for (let length = limit; length > longest; length--) {
        if (buffer.endsWith(stop.slice(0, length))) {
          longest = length;
          break;
        }
      }
    }
    return longest;
  }
}
