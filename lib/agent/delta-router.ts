import "server-only";
/** A piece of streamed text with its event kind. */
export interface RoutedDelta {
  /** `text` for answer tokens, `thought` for reasoning. */
  kind: "text" | "thought";
  /** The text. */
  delta: string;
}

/** Turns raw text deltas of one model turn into thought/text events; stateful per turn. */
export interface DeltaRouter {
  /** Feeds a raw delta; returns what can be emitted now. */
  push(delta: string): RoutedDelta[];
  /** Emits whatever is still held back at the end of the turn. */
  flush(): RoutedDelta[];
  /** Told when the turn starts calling tools (a tool-call delta arrived); returns what to emit now. */
  toolCall?(): RoutedDelta[];
}

/** Everything is answer text (function calling: text comes only with the answer). */
export function textRouter(): DeltaRouter {
  return { push: (delta) => (delta ? [{ kind: "text", delta }] : []), flush: () => [] };
}

/** Text held back at the start of a function-calling turn, at most, before it counts as the answer. */
const PREAMBLE_LIMIT = 160;

/**
 * Function calling: text a model writes before its tool calls ("Let me check the weather…") is its
 * reasoning, text of a turn without tool calls is the answer, and the stream does not say which
 * until the calls (or the end) arrive. So the start of a turn is held back: a tool call turns it
 * into `thought` (and the rest of the turn too); a paragraph break, PREAMBLE_LIMIT characters or
 * the end of the turn release it as `text`, and the turn streams as answer from then on.
 */
export function toolAwareRouter(): DeltaRouter {
  let held = "";
  let decided: "text" | "thought" | undefined;
  const release = (kind: "text" | "thought"): RoutedDelta[] => {
    decided = kind;
    const out = held ? [{ kind, delta: held }] : [];
    held = "";
    return out;
  };
  return {
    push(delta) {
      if (!delta) return [];
      if (decided) return [{ kind: decided, delta }];
      held += delta;
      return held.length >= PREAMBLE_LIMIT || held.includes("\n\n") ? release("text") : [];
    },
    flush: () => (decided ? [] : release("text")),
    toolCall: () => (decided ? [] : release("thought")),
  };
}

/** Emits nothing (turns whose text is protocol, e.g. a plan). */
export function silentRouter(): DeltaRouter {
  return { push: () => [], flush: () => [] };
}

/**
 * Routes a marker-structured turn: text before `switchMarker` is thought, text after it is
 * answer, and nothing after `stopMarker` is emitted (a model inventing its own Observation).
 * The last `holdBack` characters stay buffered so a marker split across deltas is still seen.
 */
export function markerRouter(options: { switchMarker: RegExp; stopMarker: RegExp; holdBack?: number }): DeltaRouter {
  const holdBack = options.holdBack ?? 16;
  let buffer = "";
  let emitted = 0;
  let stopped = false;

  const route = (final: boolean): RoutedDelta[] => {
    if (stopped) return [];
    const stopAt = buffer.search(options.stopMarker);
    const limit = stopAt >= 0 ? stopAt : final ? buffer.length : Math.max(emitted, buffer.length - holdBack);
    if (stopAt >= 0) stopped = true;
    if (limit <= emitted) return [];
    const switchMatch = options.switchMarker.exec(buffer);
    const switchStart = switchMatch ? switchMatch.index : Number.POSITIVE_INFINITY;
    const switchEnd = switchMatch ? switchMatch.index + switchMatch[0].length : Number.POSITIVE_INFINITY;
    const out: RoutedDelta[] = [];
    const thoughtEnd = Math.min(limit, switchStart);
    if (thoughtEnd > emitted) out.push({ kind: "thought", delta: buffer.slice(emitted, thoughtEnd) });
    // The marker itself is neither thought nor answer.
    const textStart = Math.max(emitted, switchEnd);
    if (limit > textStart) out.push({ kind: "text", delta: buffer.slice(textStart, limit) });
    emitted = limit;
    return out.filter((piece) => piece.delta.length > 0);
  };

  return {
    push(delta) {
      buffer += delta;
      return route(false);
    },
    flush: () => route(true),
  };
}

/**
 * Routes a prompt-call turn: once the `0:` prefix is seen the rest is answer text; a `1:` turn is
 * a tool request and emits nothing; text without a prefix is treated as answer.
 */
export function promptCallRouter(): DeltaRouter {
  let buffer = "";
  let decided: "answer" | "call" | "unknown" | undefined;
  let emitted = 0;
  const route = (final: boolean): RoutedDelta[] => {
    if (decided === undefined) {
      const match = /^\s*(?:ANSWER\s*[:：]\s*)?([01])\s*[:：]\s*/i.exec(buffer);
      if (match) {
        decided = match[1] === "0" ? "answer" : "call";
        emitted = match[0].length;
      } else if (buffer.trim().length > 12 || final) {
        decided = "unknown";
      } else {
        return [];
      }
    }
    if (decided === "call" || buffer.length <= emitted) return [];
    const delta = buffer.slice(emitted);
    emitted = buffer.length;
    return [{ kind: "text", delta }];
  };
  return {
    push(delta) {
      buffer += delta;
      return route(false);
    },
    flush: () => route(true),
  };
}
