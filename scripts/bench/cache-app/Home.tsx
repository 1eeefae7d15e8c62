export { default } from "../realistic-app/Home";
