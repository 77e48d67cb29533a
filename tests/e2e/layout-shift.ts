import type { Page } from '@playwright/test';

/**
 * The two screens every main screen's layout shift is measured at: Lighthouse's desktop and mobile presets, with
 * the full motion most users see (the page's fade-in and MUI's transitions).
 */
export const SHIFT_SCREENS = {
  phone: {
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
    reducedMotion: 'no-preference' as const,
  },
  desktop: { viewport: { width: 1350, height: 940 }, reducedMotion: 'no-preference' as const },
};

/**
 * Records every layout shift of the page's next loads, as Chromium reports them (the entries Lighthouse's CLS adds up);
 * call before `goto`.
 */
export async function recordLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { shifts: number[] };
    w.shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!e.hadRecentInput) w.shifts.push(e.value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The cumulative layout shift of the current document so far. */
export const cumulativeShift = (page: Page) =>
  page.evaluate(() => (window as unknown as { shifts: number[] }).shifts.reduce((a, b) => a + b, 0));

/**
 * Answers every API call `ms` late, as a phone's network does: each part of a screen then arrives after the first
 * paint, one after another, as it would for a user.
 */
export async function slowApi(page: Page, ms = 300) {
  await page.route('**/api/**', async (route) => {
    await new Promise((r) => setTimeout(r, ms));
    await route.continue();
  });
}
