import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The house's rules (docs/architecture.md, "Layers and their rules") are enforced by the lint
 * configuration: each planted violation below must be reported by the rule that guards it.
 */
const root = path.resolve(import.meta.dirname, '../../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The rules that fire when `code` stands at `file` (relative to the repository). */
async function rulesBroken(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

function source(file: string): string {
  return readFileSync(path.join(root, file), 'utf8');
}

describe('the architecture rules', { timeout: 120_000 }, () => {
  it('refuse a feature importing another feature, and shared UI importing a feature', async () => {
    expect(
      await rulesBroken(
        'apps/web/src/features/friends/components/Planted.tsx',
        "import { LikeButton } from '../../activity/components/LikeButton';\nexport const planted = LikeButton;\n",
      ),
    ).toContain('import-x/no-restricted-paths');
    expect(
      await rulesBroken(
        'apps/web/src/components/ui/Planted.tsx',
        "import { LikeButton } from '../../features/activity/components/LikeButton';\nexport const planted = LikeButton;\n",
      ),
    ).toContain('import-x/no-restricted-paths');
  });

  it('refuse SQL and job internals in a route, and the HTTP layer in a service', async () => {
    expect(
      await rulesBroken(
        'apps/server/src/routes/planted/planted.ts',
        "import { sql } from 'drizzle-orm';\nexport const planted = sql`SELECT 1`;\n",
      ),
    ).toContain('@typescript-eslint/no-restricted-imports');
    expect(
      await rulesBroken(
        'apps/server/src/routes/planted/planted.ts',
        "import { users } from '../../db/schema/users';\nexport const planted = users;\n",
      ),
    ).toContain('@typescript-eslint/no-restricted-imports');
    expect(
      await rulesBroken(
        'apps/server/src/services/planted.ts',
        "import { installErrorHandling } from '../http/errors';\nexport const planted = installErrorHandling;\n",
      ),
    ).toContain('@typescript-eslint/no-restricted-imports');
  });

  it('refuse product code reaching into the sandbox past its public entry', async () => {
    expect(
      await rulesBroken(
        'apps/server/src/services/planted.ts',
        "import { createWorld } from '@earshot/spotify-sandbox/world/world';\nexport const planted = createWorld;\n",
      ),
    ).toContain('no-restricted-imports');
  });

  it('refuse an import cycle', async () => {
    // routes/activity.ts already imports services/activity.ts: importing it back closes a cycle.
    const file = 'apps/server/src/services/activity.ts';
    expect(source('apps/server/src/app.ts')).toContain("from './routes/activity'");
    const planted = `${source(file)}\nexport { activityRoutes as planted } from '../routes/activity';\n`;
    expect(await rulesBroken(file, planted)).toContain('import-x/no-cycle');
  });

  it('let the code as it is pass', async () => {
    for (const file of [
      'apps/server/src/services/activity.ts',
      'apps/web/src/features/activity/components/ActivityRow.tsx',
    ]) {
      expect(await rulesBroken(file, source(file))).toEqual([]);
    }
  });
});
