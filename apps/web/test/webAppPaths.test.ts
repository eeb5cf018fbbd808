import { webAppPaths } from '@earshot/contract/web-paths';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createAppRoutes } from '../src/app/router';
import { createQueryClient } from '../src/lib/queryClient';

/** Every page path the route table declares, absolute, without the catch-all. */
function declaredPaths(routes: RouteObject[], parent = ''): string[] {
  return routes.flatMap((route) => {
    const own = route.index ? parent || '/' : route.path;
    if (own === undefined) return declaredPaths(route.children ?? [], parent);
    const full = own.startsWith('/') ? own : `${parent}/${own}`.replace(/\/+/g, '/');
    const children = declaredPaths(route.children ?? [], full);
    return own === '*' ? children : [full, ...children];
  });
}

describe('the route table', () => {
  it('declares exactly the pages the server answers with 200 (webAppPaths)', () => {
    expect(new Set(declaredPaths(createAppRoutes(createQueryClient())))).toEqual(
      new Set(webAppPaths),
    );
  });
});
