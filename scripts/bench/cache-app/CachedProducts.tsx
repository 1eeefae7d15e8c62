export { default, head } from "../realistic-app/Products";
