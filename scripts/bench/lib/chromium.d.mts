import type { BrowserContext } from "playwright-core";

export const CHROMIUM_PATH: string;
export const hasChromium: boolean;
export function launchChromium(): Promise<{ browser: BrowserContext; close(): Promise<void> }>;
