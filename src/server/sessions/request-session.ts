import type { Context } from "koa";
import type { Session } from "../../shared/routing/request";
import { clientLeft } from "../http/client-left";
import { isSafeMethod } from "../http/methods";
import { SessionPending } from "./session-pending";
import {
  FLASH_KEY,
  type LoadedSession,
  type SessionChanges,
  type SessionStore,
  SessionStoreUnavailableError,
  type SessionValues,
  sessionUnavailable,
} from "./session-store";

/** What a request's session needs of the app's sessions. */
export interface RequestSessions {
  readonly store: SessionStore;
  /** Route chains (by pattern) seen touching the session: with a store that fetches, their requests fetch it before they run. */
  readonly touchingChains: Set<string>;
}

/** The session's own key is not for route code. */
function ownKey(key: string): void {
  if (key === FLASH_KEY) throw new TypeError(`"${FLASH_KEY}" is the session's own key: use session.flash(key, value)`);
}

/**
 * One request's session: read from its store on first use (never for a page that does not
 * touch it), changed in memory, written once by `commit` before the response starts. Functions
 * are arrow fields, so they keep working destructured.
 */
export class RequestSession implements Session {
  readonly #ctx: Context;
  readonly #store: SessionStore;
  readonly #touchingChains: Set<string>;
  #loaded: LoadedSession | undefined;
  #loading: Promise<void> | undefined;
  #failed = false;
  /** Set once this request was refused for want of its session (counted once). */
  #refused = false;
  /** Set by every change: a session only read is not written. */
  #changed = false;
  /** Set by `regenerate` and `clear`: the next write gives the session a new id. */
  #renew = false;
  /** Set by `clear`: the values start again from none. */
  #cleared = false;
  /** Keys set, numbers added and keys flashed since the read (or `clear`), for a store that writes changes. */
  readonly #set = new Set<string>();
  readonly #added = new Map<string, number>();
  readonly #flashed = new Set<string>();
  /** Flashed values this request took out of the session, so each of its loaders sees them. */
  #taken: SessionValues | undefined;
  /** The request's route chain, learnt as touching the session should it wait for it. */
  #pattern: string | undefined;

  constructor(ctx: Context, { store, touchingChains }: RequestSessions) {
    this.#ctx = ctx;
    this.#store = store;
    this.#touchingChains = touchingChains;
  }

  readonly get = <Value>(key: string): Value | undefined => {
    const values = this.#values();
    if (this.#taken !== undefined && key in this.#taken) return this.#taken[key] as Value;
    const flashed = values[FLASH_KEY] as SessionValues | undefined;
    if (flashed === undefined || !Object.hasOwn(flashed, key)) return values[key] as Value | undefined;
    // HEAD shows no page: the flash stays for the GET that will (a taken one is put back at commit).
    if (this.#ctx.method === "HEAD") return flashed[key] as Value;
    const { [key]: value, ...rest } = flashed;
    if (Object.keys(rest).length > 0) values[FLASH_KEY] = rest;
    else delete values[FLASH_KEY];
    this.#taken ??= Object.create(null) as SessionValues;
    this.#taken[key] = value;
    this.#changed = true;
    return value as Value;
  };

  readonly set = (key: string, value: unknown): void => {
    ownKey(key);
    this.#values()[key] = value;
    this.#set.add(key);
    this.#added.delete(key);
    this.#changed = true;
  };

  readonly increment = (key: string, by = 1): number => {
    ownKey(key);
    if (typeof by !== "number" || !Number.isFinite(by)) throw new TypeError(`session.increment takes a finite number to add, got ${String(by)}`);
    const values = this.#values();
    const current = values[key];
    const sum = (typeof current === "number" ? current : 0) + by;
    values[key] = sum;
    if (!this.#set.has(key)) this.#added.set(key, (this.#added.get(key) ?? 0) + by);
    this.#changed = true;
    return sum;
  };

  readonly flash = (key: string, value: unknown): void => {
    const values = this.#values();
    values[FLASH_KEY] = { ...(values[FLASH_KEY] as SessionValues | undefined), [key]: value };
    this.#flashed.add(key);
    this.#changed = true;
  };

  readonly clear = (): void => {
    this.#loaded = this.#store.emptied(this.#ctx, this.#loaded);
    this.#taken = undefined;
    this.#set.clear();
    this.#added.clear();
    this.#flashed.clear();
    this.#changed = true;
    this.#renew = true;
    this.#cleared = true;
  };

  readonly regenerate = (): void => {
    this.#values();
    this.#changed = true;
    this.#renew = true;
  };

  /** Its store fetches sessions (so route code touching it early is run again once it is here). */
  get fetches(): boolean {
    return this.#store.fetches;
  }

  /** Fetches the session before the chain runs for a request not safe to run twice, or a chain known to touch it. */
  prepare(pattern: string, method: string): Promise<void> | undefined {
    this.#pattern = pattern;
    return isSafeMethod(method) && !this.#touchingChains.has(pattern) ? undefined : this.load();
  }

  /** Settles once the session was fetched (or found unreachable). */
  loaded(): Promise<void> {
    return this.load() ?? Promise.resolve();
  }

  /** Fetches the session now; a promise only while the store answers. Never rejects. */
  load(): Promise<void> | undefined {
    if (this.#loaded || this.#failed) return undefined;
    if (this.#loading) return this.#loading;
    let read: LoadedSession | Promise<LoadedSession>;
    try {
      read = this.#store.read(this.#ctx);
    } catch {
      this.#failed = true;
      return undefined;
    }
    if (!(read instanceof Promise)) {
      this.#loaded = read;
      return undefined;
    }
    this.#loading = read.then(
      (loaded) => {
        this.#loaded = loaded;
      },
      () => {
        this.#failed = true;
      },
    );
    return this.#loading;
  }

  /**
   * Writes the session when it changed, was read under a rotated key or holds flashed values the
   * store took out for this request; a promise only then.
   */
  commit(): Promise<void> | undefined {
    const loaded = this.#loaded;
    if (!loaded) return undefined;
    const restore = this.#unused(loaded);
    if (!(this.#changed || loaded.rotated || restore)) return undefined;
    const changes: SessionChanges = {
      cleared: this.#cleared,
      renew: this.#renew,
      set: this.#set,
      added: this.#added,
      flashed: this.#flashed,
      restore: restore ?? {},
    };
    return this.#store.write(this.#ctx, loaded, changes).catch((error: unknown) => {
      if (error instanceof SessionStoreUnavailableError) this.#countRefusal();
      throw error;
    });
  }

  /** Flashed values the store took out at the read that nobody will see: not read, or read by a client that has left. */
  #unused(loaded: LoadedSession): SessionValues | undefined {
    if (!loaded.flashesTaken) return undefined;
    const unread = loaded.values[FLASH_KEY] as SessionValues | undefined;
    const unseen = clientLeft(this.#ctx) ? this.#taken : undefined;
    if (!unread && !unseen) return undefined;
    return { ...unseen, ...unread };
  }

  #countRefusal(): void {
    if (!this.#refused) this.#store.unavailable();
    this.#refused = true;
  }

  #values(): SessionValues {
    if (this.#loaded) return this.#loaded.values;
    const loading = this.#failed ? undefined : this.load();
    const loaded = this.#loaded as LoadedSession | undefined;
    if (loaded) return loaded.values;
    if (loading) {
      if (this.#pattern !== undefined) this.#touchingChains.add(this.#pattern);
      throw new SessionPending();
    }
    this.#countRefusal();
    throw sessionUnavailable();
  }
}
