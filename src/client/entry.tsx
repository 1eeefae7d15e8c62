// The browser's entry point. Its code is in ./start, which the lazily loaded chunks share.
import { start } from "./start";

await start();
