import { createContext, useContext } from "react";

/** What the page's action returned when this page answers a POST; undefined otherwise. */
export const ActionDataContext = createContext<unknown>(undefined);

/** The data the page's action returned (with its 422 errors, say), until the next navigation. */
export function useActionData<Data = unknown>(): Data | undefined {
  return useContext(ActionDataContext) as Data | undefined;
}
