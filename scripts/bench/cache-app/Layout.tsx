export { default, head } from "../realistic-app/Layout";
