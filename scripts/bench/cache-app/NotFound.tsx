export { default, head } from "../realistic-app/NotFound";
