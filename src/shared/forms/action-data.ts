import { createContext } from "react";

/**
 * What the page's action returned when this page answers a POST; undefined otherwise. Apart
 * from useActionData, so that the document, which provides it, does not bring the hook.
 */
export const ActionDataContext = createContext<unknown>(undefined);
