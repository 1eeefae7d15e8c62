export declare const REDIS_SERVER: string;
export declare const redisAvailable: boolean;

export interface TestRedis {
  url: string;
  port: number;
  /** Kills the server at once (SIGKILL), as a crashed or partitioned Redis. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open and commands go unanswered, as a stalled Redis. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

export declare function startRedis(): Promise<TestRedis>;
