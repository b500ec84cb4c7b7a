import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export type { Browser, BrowserContext, ConsoleMessage, Page, Response, Route } from 'playwright-core';

/** Where the browser tests look for Debian's chromium package (installed by .ci/run). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Launches headless Chromium for the console's browser tests, or says clearly that it is missing. */
export async function launchChromium(path: string = CHROMIUM_PATH): Promise<Browser> {
  if (!existsSync(path)) {
    throw new Error(`The console's browser tests need Chromium at ${path}: apt-get install chromium, or set CHROMIUM_PATH`);
  }
  return chromium.launch({ executablePath: path, args: ['--no-sandbox'] });
}
