import "server-only";
import type { Redis } from "ioredis";
import type { RunEvent } from "../runs/run-events";
import { REDIS_REQUEST_TIMEOUT_MS } from "./redis-connection";
import { queueChannels } from "./run-jobs";

/** Listener for one run's live events. */
type Listener = (event: RunEvent) => void;

/**
 * Run events across processes: workers publish each event on the run's Redis channel in `seq`
 * order (one connection, so Redis keeps the order); web processes subscribe per run with one
 * shared subscriber connection. Persisted events are replayed from the database (the recorder
 * writes them), so pub/sub only needs to carry what happens while a client is connected; the
 * SSE feed (`runEventFeed`) merges the two by `seq`, without gaps or duplicates.
 */
export class RedisRunEventChannel {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly subscribed = new Map<string, Promise<void>>();
  private readonly channels: ReturnType<typeof queueChannels>;

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    prefix: string,
  ) {
    this.channels = queueChannels(prefix);
    const channelPrefix = this.channels.events("");
    subscriber.on("message", (channel: string, message: string) => {
      if (!channel.startsWith(channelPrefix)) return;
      const listeners = this.listeners.get(channel.slice(channelPrefix.length));
      if (!listeners?.size) return;
      let event: RunEvent;
      try {
        event = JSON.parse(message) as RunEvent;
      } catch {
        return;
      }
      for (const listener of listeners) listener(event);
    });
    // After a reconnect ioredis re-subscribes by itself (autoResubscribe); nothing to do here.
  }

  /** Publishes one event; never throws (a lost live event is replayed from the database). */
  publish(event: RunEvent): void {
    this.publisher.publish(this.channels.events(event.runId), JSON.stringify(event)).catch(() => undefined);
  }

  /** Subscribes to a run's live events; returns the unsubscribe function. */
  subscribe(runId: string, listener: Listener): () => void {
    let set = this.listeners.get(runId);
    if (!set) {
      set = new Set();
      this.listeners.set(runId, set);
      const channel = this.channels.events(runId);
      this.subscribed.set(
        runId,
        this.subscriber.subscribe(channel).then(
          () => undefined,
          () => undefined,
        ),
      );
    }
    set.add(listener);
    return () => {
      const current = this.listeners.get(runId);
      if (!current) return;
      current.delete(listener);
      if (current.size > 0) return;
      this.listeners.delete(runId);
      this.subscribed.delete(runId);
      this.subscriber.unsubscribe(this.channels.events(runId)).catch(() => undefined);
    };
  }

  /**
   * Resolves once Redis confirmed the run's subscription (or it failed), so a replay read after
   * it cannot miss an event published between the replay and the subscription.
   */
  async ready(runId: string): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Redis down: replay from the database rather than hang the stream.
    await Promise.race([
      this.subscribed.get(runId),
      new Promise((resolve) => {
        timer = setTimeout(resolve, REDIS_REQUEST_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timer);
  }
}
