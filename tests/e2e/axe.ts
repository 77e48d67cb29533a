import axe, { type Result } from 'axe-core';
import type { Page } from '@playwright/test';

declare global {
  interface Window {
    axe?: typeof axe;
  }
}

/**
 * axe's serious and critical findings on the page, or inside `within` (a CSS selector) only.
 *
 * axe's source (560 kB) is evaluated once per document: a screen reached inside the app (`goInApp`) is audited by
 * axe's run alone, about 50 ms, where evaluating the source again cost 0.6–0.9 s an audit on two cores.
 */
export async function seriousViolations(page: Page, within?: string): Promise<Result[]> {
  if (!(await page.evaluate(() => typeof window.axe?.run === 'function'))) await page.evaluate(axe.source);
  const violations = await page.evaluate(
    (selector) => window.axe!.run(selector ? { include: [selector] } : document, { resultTypes: ['violations'] }).then((r) => r.violations),
    within,
  );
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
