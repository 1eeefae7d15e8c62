import { compareEventIds, nextEventId } from "./event-id";
import { eventFrame, type StoredEvent } from "./sse-format";

/** A stream listening to a channel on this process. */
export interface ChannelSubscriber {
  deliver(event: StoredEvent, frame: Uint8Array): void;
}

/** What a reconnecting client is sent: the kept events after its id, and whether older ones it missed are gone. */
export interface Backlog {
  events: StoredEvent[];
  missed: boolean;
}

interface Channel {
  subscribers: Set<ChannelSubscriber>;
  /** The last `retain` events this process saw, oldest first. */
  kept: StoredEvent[];
  /** The newest id dropped from `kept`: a client behind it missed something. */
  trimmedId: string | undefined;
}

/** Channels kept for resuming once nobody listens on them; past this, the longest unused go. */
const MAX_IDLE_CHANNELS = 1_000;

/**
 * This process's channels: who listens to each, and its last events (what resume serves without
 * Redis, or while Redis cannot be reached). Every event reaches subscribers through `dispatch`,
 * whether it was published here or came from another replica.
 */
export class ChannelRegistry {
  readonly #channels = new Map<string, Channel>();
  readonly #retain: number;

  constructor(retain: number) {
    this.#retain = retain;
  }

  subscribe(name: string, subscriber: ChannelSubscriber): void {
    this.#channel(name).subscribers.add(subscriber);
  }

  unsubscribe(name: string, subscriber: ChannelSubscriber): void {
    this.#channels.get(name)?.subscribers.delete(subscriber);
  }

  /** Hands an event to the channel's subscribers (its frame encoded once) and keeps it; an id already seen is dropped. */
  dispatch(name: string, event: StoredEvent): void {
    const channel = this.#channel(name);
    const last = channel.kept.at(-1);
    if (last && compareEventIds(event.id, last.id) <= 0) return;
    channel.kept.push(event);
    if (channel.kept.length > this.#retain) channel.trimmedId = channel.kept.shift()?.id;
    if (channel.subscribers.size === 0) return;
    const frame = eventFrame(event);
    for (const subscriber of channel.subscribers) subscriber.deliver(event, frame);
  }

  /** An event published without Redis: its id follows the channel's last one. */
  publishLocal(name: string, data: string): StoredEvent {
    const event = { id: nextEventId(this.lastId(name)), data };
    this.dispatch(name, event);
    return event;
  }

  lastId(name: string): string | undefined {
    return this.#channels.get(name)?.kept.at(-1)?.id;
  }

  /** The kept events after `lastId`; `missed` when events after it were dropped already. */
  since(name: string, lastId: string): Backlog {
    const channel = this.#channels.get(name);
    if (!channel) return { events: [], missed: false };
    const events = channel.kept.filter((event) => compareEventIds(event.id, lastId) > 0);
    const missed = channel.trimmedId !== undefined && compareEventIds(lastId, channel.trimmedId) < 0;
    return { events, missed };
  }

  /** The channels someone listens to on this process, with the last id each saw (to catch up after a lost connection). */
  *listened(): Iterable<[name: string, lastId: string | undefined]> {
    for (const [name, channel] of this.#channels) if (channel.subscribers.size > 0) yield [name, channel.kept.at(-1)?.id];
  }

  #channel(name: string): Channel {
    let channel = this.#channels.get(name);
    if (channel) {
      // Map order is use order: the oldest entries are the least recently used.
      this.#channels.delete(name);
      this.#channels.set(name, channel);
      return channel;
    }
    channel = { subscribers: new Set(), kept: [], trimmedId: undefined };
    this.#channels.set(name, channel);
    if (this.#channels.size > MAX_IDLE_CHANNELS) this.#forgetIdle();
    return channel;
  }

  #forgetIdle(): void {
    for (const [name, channel] of this.#channels) {
      if (this.#channels.size <= MAX_IDLE_CHANNELS) return;
      if (channel.subscribers.size === 0) this.#channels.delete(name);
    }
  }
}
