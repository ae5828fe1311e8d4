import type { Page } from 'playwright-core';

declare global {
  interface Window {
    __toastsSeen?: string[];
  }
}

/**
 * Records the text of every toast the page shows from its first script on, so a test can check
 * a one-second toast without racing it.
 */
export async function recordToasts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__toastsSeen = [];
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll('.bp6-toast')) {
        const text = toast.textContent?.trim() ?? '';
        if (text && !window.__toastsSeen?.includes(text)) window.__toastsSeen?.push(text);
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

export function toastsSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__toastsSeen ?? []);
}
