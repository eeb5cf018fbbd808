import { lazy, type ComponentType } from 'react';

/** A component whose module is its own chunk, loaded on first render or earlier by `preload`. */
export type LazyPage<Props extends object> = ComponentType<Props> & {
  preload: () => Promise<unknown>;
};

/**
 * A page loaded on demand (decision 0023). `preload` starts the download early, on intent (a
 * hover, focus or touch of a link to it); render and preload share one download. A failed
 * download is forgotten, so the next attempt fetches again.
 */
export function lazyPage<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
): LazyPage<Props> {
  let loading: Promise<ComponentType<Props>> | undefined;
  const preload = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  const Page = lazy(async () => ({ default: await preload() }));
  return Object.assign(Page as unknown as ComponentType<Props>, { preload });
}
