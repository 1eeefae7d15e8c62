import { unserialisableReason } from "./unserialisable";

/** A value the server was asked to send as JSON that JSON cannot carry: a server error, naming the value. */
export class UnserialisableValueError extends TypeError {
  override name = "UnserialisableValueError";
}

/**
 * JSON.stringify, failing with an error that names what could not be written and where (a BigInt,
 * a cycle, a nesting too deep for the stack) rather than a bare stack overflow. `what` names the
 * value in the message: "the answer", "the page's data".
 */
export function jsonText(value: unknown, what: string): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    let reason: string;
    try {
      reason = unserialisableReason(value);
    } catch {
      // A toJSON or getter that throws: its own error says more than the walk could.
      reason = (error as Error).message;
    }
    throw new UnserialisableValueError(`Cannot serialise ${what} as JSON: ${reason}`, { cause: error });
  }
}
