import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Runs axe-core over the page as it is: its default rules and `target-size` (WCAG 2.2's 24 px
 * targets, off by default). Fails with each violation, its elements and what is wrong with them.
 * A violation is fixed in the app, never by turning a rule off (decision 0029).
 */
export async function expectNoViolations(page: Page, state: string): Promise<void> {
  // A feed's rows out of sight skip layout until scrolled near (content-visibility: auto), in a
  // box of a placeholder height that a row with a two-line title outgrows: measured so, its like
  // button reaches under the next row's links. Each row is measured as laid out, as a reader
  // meets it on screen.
  await page.addStyleTag({ content: '.activity-row { content-visibility: visible; }' });
  await untilStill(page);
  const { violations } = await new AxeBuilder({ page })
    .options({ rules: { 'target-size': { enabled: true } } })
    .analyze();
  const found = violations.map(
    (violation) =>
      `${violation.id}: ${violation.help}\n` +
      violation.nodes
        .map((node) => `  ${node.target.join(' ')}\n    ${node.failureSummary ?? ''}`)
        .join('\n'),
  );
  expect(found, `axe-core violations on ${state}`).toEqual([]);
}

/** How long the page's DOM stays unchanged before it counts as still. */
const STILL_MS = 500;

/**
 * Waits until the page's DOM has not changed for `STILL_MS`. axe-core measures a page over
 * several frames: rows a feed renders in the background (decision 0034) moving in between would
 * show targets overlapping that never do on screen.
 */
async function untilStill(page: Page): Promise<void> {
  await page.evaluate(
    (stillMs) =>
      new Promise<void>((resolve) => {
        const browser = globalThis as unknown as {
          document: { documentElement: unknown };
          MutationObserver: new (changed: () => void) => {
            observe: (target: unknown, options: object) => void;
            disconnect: () => void;
          };
        };
        let timer = setTimeout(done, stillMs);
        const observer = new browser.MutationObserver(() => {
          clearTimeout(timer);
          timer = setTimeout(done, stillMs);
        });
        function done() {
          observer.disconnect();
          resolve();
        }
        observer.observe(browser.document.documentElement, {
          subtree: true,
          childList: true,
          attributes: true,
          characterData: true,
        });
      }),
    STILL_MS,
  );
}
