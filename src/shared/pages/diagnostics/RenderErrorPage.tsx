/** Throws while rendering on the server, before the shell is sent. */
export function RenderErrorPage(): never {
  throw new Error("diagnostic render error");
}
