import type { BrowserContext } from "playwright-core";

export const CHROMIUM_PATH: string;
export const hasChromium: boolean;
export const CHROMIUM_FLAGS: string[];
export function launchChromium(options?: { javaScriptEnabled?: boolean }): Promise<{ browser: BrowserContext; close(): Promise<void> }>;
