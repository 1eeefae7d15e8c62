/** The request is not a well-formed tunnel request; the message is safe to send to the client. */
export class MalformedRequestError extends Error {
  override name = "MalformedRequestError";
}

export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
}

export class ClientAbortedError extends Error {
  override name = "ClientAbortedError";
}
