import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PAGE_PRELOADS_FILE, type PagePreloads } from '@earshot/contract/site';
import { build, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const WEB_ROOT = path.resolve(import.meta.dirname, '..');

/**
 * What a visitor's first visit to `/` downloads (decision 0023): the entry chunk and the chunks it
 * imports statically, from a real production build. Pages, the logged-in layout and the
 * libraries only they use must be in chunks loaded on demand.
 */
describe('the entry chunk', () => {
  const outDir = mkdtempSync(path.join(tmpdir(), 'earshot-web-build-'));
  let chunks: Rolldown.OutputChunk[];
  let initialModules: string[];
  let pagePreloads: PagePreloads;

  beforeAll(async () => {
    const output = (await build({
      root: WEB_ROOT,
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true },
    })) as Rolldown.RolldownOutput;
    chunks = output.output.filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
    initialModules = staticModules(chunks.find((chunk) => chunk.isEntry));
    const preloads = output.output.find((item) => item.fileName === PAGE_PRELOADS_FILE);
    pagePreloads = JSON.parse(String(preloads?.type === 'asset' ? preloads.source : '{}'));
  }, 120_000);

  /** The chunks `start` imports statically, itself included. */
  function staticChunks(start: Rolldown.OutputChunk | undefined): Set<Rolldown.OutputChunk> {
    const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
    const loaded = new Set<Rolldown.OutputChunk>();
    const visit = (chunk: Rolldown.OutputChunk | undefined) => {
      if (!chunk || loaded.has(chunk)) return;
      loaded.add(chunk);
      for (const imported of chunk.imports) visit(byName.get(imported));
    };
    visit(start);
    return loaded;
  }

  /** The modules of `start` and of the chunks it imports statically, relative to the app. */
  function staticModules(start: Rolldown.OutputChunk | undefined): string[] {
    return [...staticChunks(start)]
      .flatMap((chunk) => chunk.moduleIds)
      .map((id) => path.relative(WEB_ROOT, id).replaceAll(path.sep, '/'));
  }

  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('holds the landing page and none of the other pages', () => {
    expect(initialModules).toContain('src/features/landing/components/LandingPage.tsx');
    const routes = initialModules.filter((id) => id.startsWith('src/app/routes/'));
    expect(routes).toEqual(['src/app/routes/HomeRoute.tsx']);
    const loggedIn = initialModules.filter((id) =>
      /src\/features\/(activity|catalogue|discover|friends|profile|settings|import|ignore|admin|search)\//.test(
        id,
      ),
    );
    expect(loggedIn).toEqual([]);
  });

  it('leaves out the player, the menus, zod and Sentry', () => {
    const heavy = initialModules.filter(
      (id) =>
        id.endsWith('/MiniPlayer.tsx') ||
        id.endsWith('/UserMenu.tsx') ||
        id.endsWith('/NotificationBell.tsx') ||
        id.includes('node_modules/@radix-ui/') ||
        // Loaded only when the server names a DSN (decision 0030).
        id.includes('node_modules/@sentry/') ||
        id.includes('node_modules/zod/v4/classic/') ||
        id.includes('node_modules/zod/v4/core/schemas.js'),
    );
    expect(heavy).toEqual([]);
  });

  it('puts each page in a chunk of its own, loaded on demand', () => {
    const pageChunks = chunks.filter((chunk) =>
      chunk.moduleIds.some((id) =>
        /src\/app\/routes\/(Activity|Profile|Settings)Route\.tsx$/.test(id),
      ),
    );
    expect(pageChunks).toHaveLength(3);
    for (const chunk of pageChunks) expect(chunk.isDynamicEntry).toBe(true);
  });

  it('opens Recent without Radix: its menus load when opened (decision 0034)', () => {
    const activity = chunks.find((chunk) =>
      chunk.moduleIds.some((id) => id.endsWith('src/app/routes/ActivityRoute.tsx')),
    );
    const modules = staticModules(activity);
    expect(modules).toContain('src/features/activity/components/ActivityList.tsx');
    expect(modules.filter((id) => id.includes('node_modules/@radix-ui/'))).toEqual([]);
  });

  it("lists for the server the chunks every page loads beside the entry's (decision 0037)", () => {
    const entry = staticChunks(chunks.find((chunk) => chunk.isEntry));
    const pages = chunks.filter((chunk) =>
      chunk.moduleIds.some(
        (id) => /src\/app\/routes\/\w+Route\.tsx$/.test(id) && !id.endsWith('/HomeRoute.tsx'),
      ),
    );
    expect(pages.length).toBeGreaterThan(8);
    const everyPageLoads = [...staticChunks(pages[0])].filter(
      (chunk) => !entry.has(chunk) && pages.every((page) => staticChunks(page).has(chunk)),
    );
    expect([...pagePreloads.modules].sort()).toEqual(
      everyPageLoads.map((chunk) => `/${chunk.fileName}`).sort(),
    );
    // One chunk, one request before a page can paint (decision 0049): the app's shared modules
    // with zod and the pages' part of TanStack Query.
    expect(everyPageLoads).toHaveLength(1);
    const sharedModules = everyPageLoads[0]?.moduleIds ?? [];
    for (const library of ['node_modules/zod/', 'node_modules/@tanstack/query-core/']) {
      expect(sharedModules.some((id) => id.includes(library))).toBe(true);
    }
  });

  it("lists the feed pages' chunks and stylesheets beyond those (decisions 0045, 0048)", () => {
    const chunkOf = (module: string) =>
      chunks.find((chunk) => chunk.facadeModuleId?.endsWith(module));
    const feedPage = chunkOf('src/app/routes/ActivityRoute.tsx');
    // The loaders' code, which the entry imports as a navigation starts.
    const loaders = chunkOf('src/app/pageData.ts');
    // The signed-in layout's live stream and offline keeper, loaded before the first paint.
    const layoutParts = ['src/app/layout/LiveCacheSync.tsx', 'src/app/offlinePages.tsx'].map(
      chunkOf,
    );
    expect(layoutParts).not.toContain(undefined);
    const entry = staticChunks(chunks.find((chunk) => chunk.isEntry));
    const named = new Set([
      ...entry,
      ...pagePreloads.modules.map((address) => chunks.find((c) => `/${c.fileName}` === address)),
    ]);
    const pageLoads = [feedPage, loaders, ...layoutParts].flatMap((chunk) => [
      ...staticChunks(chunk),
    ]);
    expect(new Set(pagePreloads.feedPage.modules)).toEqual(
      new Set(pageLoads.filter((chunk) => !named.has(chunk)).map((chunk) => `/${chunk.fileName}`)),
    );
    // Every stylesheet the page's chunks bring, beyond the entry's own.
    const entryStyles = new Set(
      [...entry].flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])]),
    );
    const styles = pageLoads
      .flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])])
      .filter((file) => !entryStyles.has(file));
    expect(styles.length).toBeGreaterThan(0);
    expect(new Set(pagePreloads.feedPage.styles)).toEqual(
      new Set(styles.map((file) => `/${file}`)),
    );
  });
});
