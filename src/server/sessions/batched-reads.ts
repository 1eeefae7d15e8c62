import type { ReadReply } from "./redis-scripts";

/** A read waiting for its turn's batch: its key, and what its caller makes of the reply. */
interface WaitingRead<Session> {
  key: string;
  settle: (reply: ReadReply) => Session;
  resolve(session: Session): void;
  reject(error: unknown): void;
}

/** The most keys one script call reads: a turn with more reads sends more calls (each a few ms of Redis' time at most). */
export const MAX_BATCH_KEYS = 500;

/** Redis refused one key's read (out of memory as it took its flashes); the batch's other reads stand. */
export class SessionReadRefusedError extends Error {
  override name = "SessionReadRefusedError";
}

/** One read's session from its reply; a throw of `settle` fails that read alone. */
function settled<Session>(read: WaitingRead<Session>, reply: ReadReply): void {
  try {
    read.resolve(read.settle(reply));
  } catch (error) {
    read.reject(error);
  }
}

/**
 * The session reads asked for in one turn of the event loop, sent as one script call at its end
 * (docs/decisions/0107-session-reads-batched-per-turn.md): one command, one timeout timer, one
 * promise and one reply to parse for all the pages that turn reads, where each read cost its own.
 * A read leaves no later than before: the connection holds the turn's writes until its end
 * (0098). The script reads each key as a script of its own would, so a batch changes no
 * outcome; when Redis cannot be reached every read of the batch fails, as each would have.
 * A read's reply is made its session by `settle`, in the batch's callback, so a read costs one
 * promise. `schedule` runs the batch at the end of the turn; a read is asked before the
 * connection is corked, so the batch still leaves in that turn's one write.
 */
export function batchedReads<Session>(
  readAll: (keys: readonly string[]) => Promise<ReadReply[]>,
  schedule: (flush: () => void) => void = setImmediate,
): (key: string, settle: (reply: ReadReply) => Session) => Promise<Session> {
  let current: WaitingRead<Session>[] | undefined;
  const send = (batch: WaitingRead<Session>[]) => {
    const failed = (error: unknown) => {
      for (const read of batch) read.reject(error);
    };
    let replies: Promise<ReadReply[]>;
    try {
      replies = readAll(batch.map((read) => read.key));
    } catch (error) {
      // Never thrown out of the turn's callback: each read fails instead.
      failed(error);
      return;
    }
    replies.then((answers) => {
      for (let i = 0; i < batch.length; i++) {
        const read = batch[i] as WaitingRead<Session>;
        const reply = answers[i];
        if (reply === undefined) read.reject(new SessionReadRefusedError("no reply for this key"));
        else if (reply[0] === -3) read.reject(new SessionReadRefusedError(reply[1]));
        else settled(read, reply);
      }
    }, failed);
  };
  return (key, settle) =>
    new Promise<Session>((resolve, reject) => {
      if (current === undefined || current.length >= MAX_BATCH_KEYS) {
        const batch: WaitingRead<Session>[] = [];
        current = batch;
        schedule(() => {
          if (current === batch) current = undefined;
          send(batch);
        });
      }
      current.push({ key, settle, resolve, reject });
    });
}
