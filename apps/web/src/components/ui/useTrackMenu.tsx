import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import type { PointerMenuTarget } from './PointerMenu';

// Radix's menu code loads when a menu is first opened, not with the list (decision 0034).
const PointerMenu = lazy(() =>
  import('./PointerMenu').then((module) => ({ default: module.PointerMenu })),
);

/**
 * The context menu of a list's track rows: `openFor(item)` is a row's `onOpenMenu`, `menu` the
 * element to render once beside the list. The item is kept while the menu closes, so the menu's
 * content stays in place during its exit.
 */
export function useTrackMenu<T extends { track: { title: string } }>(
  renderItems: (item: T) => ReactNode,
) {
  const [opened, setOpened] = useState<{
    item: T;
    target: PointerMenuTarget;
    open: boolean;
  } | null>(null);
  // Stable, so memoized rows given it re-render only when their own item changes.
  const openFor = useCallback(
    (item: T) => (target: PointerMenuTarget) => setOpened({ item, target, open: true }),
    [],
  );
  const menu = opened && (
    <Suspense>
      <PointerMenu
        target={opened.target}
        open={opened.open}
        onClose={() => setOpened({ ...opened, open: false })}
        label={`Track actions: ${opened.item.track.title}`}
      >
        {renderItems(opened.item)}
      </PointerMenu>
    </Suspense>
  );
  return { openFor, menu };
}
