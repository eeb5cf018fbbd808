import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Runs axe-core over the page as it is: its default rules and `target-size` (WCAG 2.2's 24 px
 * targets, off by default). Fails with each violation, its elements and what is wrong with them.
 * A violation is fixed in the app, never by turning a rule off (decision 0029).
 */
export async function expectNoViolations(page: Page, state: string): Promise<void> {
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
