import type { Part, PluginFunction } from "formidable";
import { BodyRefusedError, tooLarge } from "./body-errors";

/** A route's opt-in to file parts, with its own limits; without one, file parts are refused. */
export interface UploadPolicy {
  /** Largest single file. */
  maxFileBytes: number;
  maxFiles: number;
  /** Accepted media types of the files (their part's Content-Type); any when absent. */
  types?: readonly string[];
}

/** formidable's `_error`: stops parsing, destroys (and unlinks) every file it opened. */
type FailingForm = Parameters<PluginFunction>[0] & { _error(error: Error): void };

/** formidable writes any part with a Content-Type to a file; a filename marks one too. */
const isFilePart = (part: Part) => part.mimetype !== null || part.originalFilename !== null;

function fileRefusal(part: Part, uploads: UploadPolicy | undefined, count: number): BodyRefusedError | undefined {
  if (!uploads) return new BodyRefusedError(415, "File uploads are not accepted here");
  if (count > uploads.maxFiles) return new BodyRefusedError(413, `More than ${uploads.maxFiles} files`);
  const type = part.mimetype?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (uploads.types && !uploads.types.includes(type)) {
    return new BodyRefusedError(415, "File type not accepted here");
  }
  return undefined;
}

/**
 * A formidable plugin, run before its multipart parser on every multipart body: counts the raw
 * bytes (boundaries and part headers too, chunked or not) against `maxBytes`, and refuses file
 * parts before formidable opens a temporary file for them. A plugin is where formidable hands
 * over the form itself, and `_error` is how its own plugins fail a parse.
 */
export function multipartGuard(maxBytes: number, uploads: UploadPolicy | undefined): PluginFunction {
  return (formidable) => {
    const form = formidable as FailingForm;
    form.on("progress", (bytesReceived) => {
      if (bytesReceived > maxBytes) form._error(tooLarge(maxBytes));
    });
    let files = 0;
    form.onPart = (part) => {
      // Counted here rather than by formidable's maxFiles, which fails only once the extra file
      // is open, too late for its clean-up to delete it.
      const refusal = isFilePart(part) ? fileRefusal(part, uploads, ++files) : undefined;
      if (refusal) return form._error(refusal);
      // Its promise is returned: the parser stays paused until the part's file is open.
      return form._handlePart(part);
    };
  };
}
