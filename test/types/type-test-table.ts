import { defineApp, index, route } from "#outpost";

/**
 * A route table for the type tests only (never served; its files need not exist): params, a
 * splat, optional segments, nested layouts, a static sibling of a param and a resource route. Its patterns sit under /type-tests so
 * that, pooled with the app's, they cannot pass for a product page.
 */
export const typeTestTable = defineApp({
  root: "Root.tsx",
  notFound: "NotFound.tsx",
  routes: [
    route("type-tests/notes", "NotesLayout.tsx", [
      index("NoteList.tsx"),
      route("new", "NewNote.tsx"),
      route(":id", "NoteLayout.tsx", [index("Note.tsx"), route("comments/:commentId", "Comment.tsx")]),
    ]),
    route("type-tests/files/*", "Files.tsx"),
    // An optional segment: the page answers /type-tests/about and /type-tests/en/about.
    route("type-tests/:lang?/about", "About.tsx"),
    route("type-tests/shop/:lang?/items/:id", "ShopItem.tsx"),
    // A resource route (a server-only module answering JSON): a link or a fetcher may go there too.
    route("type-tests/api/notes", "api/notes.server.ts"),
  ],
});

declare module "#outpost" {
  interface Register {
    typeTests: typeof typeTestTable;
  }
}
