import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE: string = (require('axe-core') as { source: string }).source;

/** WCAG 2.0 A/AA, 2.1 A/AA and axe's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string; html: string }[];
}

/**
 * Runs axe-core in the page and in its frames (the viewer's iframe too). Injected through the
 * DevTools protocol, so the page's CSP (script-src 'self') does not stand in the way.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  for (const frame of page.frames()) {
    await frame.evaluate(AXE_SOURCE).catch(() => undefined); // a frame that went away meanwhile
  }
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<unknown> } })
      .axe;
    const result = (await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    })) as { violations: AxeViolation[] };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({
        target: n.target,
        failureSummary: n.failureSummary,
        html: n.html.slice(0, 200),
      })),
    }));
  }, AXE_TAGS);
}

/** One line per failing rule and element, for the test log. */
export function formatViolations(where: string, violations: AxeViolation[]): string {
  if (violations.length === 0) return `${where}: 0 violations`;
  const lines = [`${where}: ${violations.length} rule(s) failing`];
  for (const v of violations) {
    lines.push(`  [${v.impact}] ${v.id}: ${v.help} (${v.nodes.length} element(s))`);
    for (const n of v.nodes.slice(0, 6)) {
      lines.push(`    ${JSON.stringify(n.target)} ${n.html}`);
      if (n.failureSummary) lines.push(`      ${n.failureSummary.replace(/\n\s*/g, ' | ')}`);
    }
  }
  return lines.join('\n');
}
