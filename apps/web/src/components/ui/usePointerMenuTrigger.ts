import { useEffect, useRef, type MouseEvent, type TouchEvent } from 'react';
import { CONTEXT_MENU_LONG_PRESS_MS } from '../../lib/constants';
import type { PointerMenuTarget } from './PointerMenu';
import { clampMenuPosition, type Point } from './pointerMenuPosition';

function targetAt(point: Point): PointerMenuTarget {
  const focused = document.activeElement;
  return {
    position: clampMenuPosition(point, { width: window.innerWidth, height: window.innerHeight }),
    returnFocusTo: focused instanceof HTMLElement && focused !== document.body ? focused : null,
  };
}

/**
 * Event handlers that open a pointer menu on an element: on a right click (instead of the
 * browser's menu) or a long press of a finger (550 ms, cancelled when the finger moves, which
 * includes scrolling, or lifts). The click that ends a long press is swallowed.
 */
export function usePointerMenuTrigger(onOpen: (target: PointerMenuTarget) => void) {
  const pressTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const longPressed = useRef(false);

  useEffect(() => () => clearTimeout(pressTimer.current), []);

  function cancelPress() {
    clearTimeout(pressTimer.current);
    pressTimer.current = undefined;
  }

  return {
    onContextMenu(event: MouseEvent<HTMLElement>) {
      event.preventDefault();
      cancelPress();
      // The context-menu key reports no pointer position: open at the focused element instead.
      if (event.clientX === 0 && event.clientY === 0 && event.target instanceof Element) {
        const box = event.target.getBoundingClientRect();
        onOpen(targetAt({ x: box.left, y: box.bottom }));
      } else {
        onOpen(targetAt({ x: event.clientX, y: event.clientY }));
      }
    },
    onTouchStart(event: TouchEvent<HTMLElement>) {
      cancelPress();
      longPressed.current = false;
      const touch = event.touches[0];
      if (event.touches.length !== 1 || !touch) return;
      const point = { x: touch.clientX, y: touch.clientY };
      pressTimer.current = setTimeout(() => {
        pressTimer.current = undefined;
        longPressed.current = true;
        onOpen(targetAt(point));
      }, CONTEXT_MENU_LONG_PRESS_MS);
    },
    onTouchMove: cancelPress,
    onTouchCancel: cancelPress,
    onTouchEnd(event: TouchEvent<HTMLElement>) {
      cancelPress();
      if (longPressed.current) {
        longPressed.current = false;
        // No click on whatever link was under the finger.
        event.preventDefault();
      }
    },
  };
}
