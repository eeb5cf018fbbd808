import { useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';
import { shouldResetScroll } from './scrollReset';

/** Scrolls to the top on route changes, by the rule of `shouldResetScroll`. */
export function ScrollReset() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  const previousPath = useRef(pathname);

  useLayoutEffect(() => {
    if (shouldResetScroll(previousPath.current, pathname, navigationType === 'POP')) {
      window.scrollTo(0, 0);
    }
    previousPath.current = pathname;
  }, [pathname, navigationType]);

  return null;
}
