import type { IncomingMessage, ServerResponse } from "node:http";
import Koa from "koa";

/**
 * An answer known from the request line alone (a health probe, a prerendered document): written
 * whole, or false to leave the request to Koa, whose middleware answers it as before.
 */
export type FixedAnswer = (req: IncomingMessage, res: ServerResponse) => boolean;

const DONE = Promise.resolve();

/**
 * Koa with answers tried before it makes a context: a cheap answer then costs its header block
 * and one write, not Koa's context, its middleware chain and its promises. Each answer takes only
 * requests its Koa twin answers the same way and leaves every other to Koa
 * (docs/decisions/0111-fixed-answers-before-koa.md).
 */
export class FixedAnswersKoa extends Koa {
  #answers: FixedAnswer[] = [];

  /** Adds an answer tried before Koa, after those added before it. */
  answerFirst(answer: FixedAnswer): void {
    this.#answers.push(answer);
  }

  override callback(): ReturnType<Koa["callback"]> {
    const koa = super.callback();
    const answers = [...this.#answers];
    return (req, res) => {
      for (let i = 0; i < answers.length; i++) {
        if ((answers[i] as FixedAnswer)(req as IncomingMessage, res as ServerResponse)) return DONE;
      }
      return koa(req, res);
    };
  }
}
